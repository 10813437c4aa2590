package dev.ferry.remoting.protocol;

import java.util.Map;

/**
 * Request codes of the remoting protocol: what a request asks for.
 *
 * <p>The numbers are RocketMQ's, so that Apache clients and brokers understand Ferry's
 * commands. Only the codes Ferry sends, answers or must recognise are listed.
 */
public final class RequestCode {
    public static final int SEND_MESSAGE = 10;
    public static final int PULL_MESSAGE = 11;
    public static final int QUERY_MESSAGE = 12;
    public static final int QUERY_BROKER_OFFSET = 13;
    public static final int QUERY_CONSUMER_OFFSET = 14;
    public static final int UPDATE_CONSUMER_OFFSET = 15;
    public static final int UPDATE_AND_CREATE_TOPIC = 17;
    public static final int GET_ALL_TOPIC_CONFIG = 21;
    public static final int GET_TOPIC_NAME_LIST = 23;
    public static final int UPDATE_BROKER_CONFIG = 25;
    public static final int GET_BROKER_CONFIG = 26;
    public static final int GET_BROKER_RUNTIME_INFO = 28;
    public static final int SEARCH_OFFSET_BY_TIMESTAMP = 29;
    public static final int GET_MAX_OFFSET = 30;
    public static final int GET_MIN_OFFSET = 31;
    public static final int GET_EARLIEST_MSG_STORETIME = 32;
    public static final int VIEW_MESSAGE_BY_ID = 33;
    public static final int HEART_BEAT = 34;
    public static final int UNREGISTER_CLIENT = 35;
    public static final int CONSUMER_SEND_MSG_BACK = 36;
    public static final int END_TRANSACTION = 37;
    public static final int GET_CONSUMER_LIST_BY_GROUP = 38;
    public static final int CHECK_TRANSACTION_STATE = 39;
    public static final int NOTIFY_CONSUMER_IDS_CHANGED = 40;
    public static final int LOCK_BATCH_MQ = 41;
    public static final int UNLOCK_BATCH_MQ = 42;
    public static final int GET_ALL_CONSUMER_OFFSET = 43;
    public static final int GET_ALL_DELAY_OFFSET = 45;
    public static final int CHECK_CLIENT_CONFIG = 46;
    /** A slave asks its master how far timer messages have fired. */
    public static final int GET_TIMER_CHECK_POINT = 60;
    public static final int GET_CLIENT_CONFIG = 47;
    public static final int PUT_KV_CONFIG = 100;
    public static final int GET_KV_CONFIG = 101;
    public static final int DELETE_KV_CONFIG = 102;
    public static final int REGISTER_BROKER = 103;
    public static final int UNREGISTER_BROKER = 104;
    public static final int GET_ROUTEINFO_BY_TOPIC = 105;
    public static final int GET_BROKER_CLUSTER_INFO = 106;
    public static final int UPDATE_AND_CREATE_SUBSCRIPTIONGROUP = 200;
    public static final int GET_ALL_SUBSCRIPTIONGROUP_CONFIG = 201;
    public static final int GET_TOPIC_STATS_INFO = 202;
    public static final int GET_CONSUMER_CONNECTION_LIST = 203;
    public static final int GET_PRODUCER_CONNECTION_LIST = 204;
    public static final int GET_ALL_TOPIC_LIST_FROM_NAMESERVER = 206;
    public static final int DELETE_SUBSCRIPTIONGROUP = 207;
    public static final int GET_CONSUME_STATS = 208;
    public static final int DELETE_TOPIC_IN_BROKER = 215;
    public static final int DELETE_TOPIC_IN_NAMESRV = 216;
    public static final int GET_KVLIST_BY_NAMESPACE = 219;
    public static final int RESET_CONSUMER_CLIENT_OFFSET = 220;
    public static final int GET_CONSUMER_STATUS_FROM_CLIENT = 221;
    public static final int INVOKE_BROKER_TO_RESET_OFFSET = 222;
    public static final int INVOKE_BROKER_TO_GET_CONSUMER_STATUS = 223;
    public static final int GET_TOPICS_BY_CLUSTER = 224;
    public static final int QUERY_TOPIC_CONSUME_BY_WHO = 300;
    public static final int GET_SYSTEM_TOPIC_LIST_FROM_NS = 304;
    public static final int GET_SYSTEM_TOPIC_LIST_FROM_BROKER = 305;
    public static final int GET_CONSUMER_RUNNING_INFO = 307;
    public static final int CONSUME_MESSAGE_DIRECTLY = 309;
    public static final int SEND_MESSAGE_V2 = 310;
    public static final int CLONE_GROUP_OFFSET = 314;
    public static final int VIEW_BROKER_STATS_DATA = 315;
    public static final int GET_BROKER_CONSUME_STATS = 317;
    public static final int UPDATE_NAMESRV_CONFIG = 318;
    public static final int GET_NAMESRV_CONFIG = 319;
    public static final int SEND_BATCH_MESSAGE = 320;
    public static final int SEND_REPLY_MESSAGE = 324;
    public static final int SEND_REPLY_MESSAGE_V2 = 325;
    public static final int PUSH_REPLY_MESSAGE_TO_CLIENT = 326;
    public static final int GET_TOPIC_CONFIG = 351;
    public static final int GET_SUBSCRIPTIONGROUP_CONFIG = 352;
    public static final int LITE_PULL_MESSAGE = 361;
    public static final int QUERY_ASSIGNMENT = 400;
    /** ACL 2.0 administration: users. */
    public static final int AUTH_CREATE_USER = 3001;
    public static final int AUTH_UPDATE_USER = 3002;
    public static final int AUTH_DELETE_USER = 3003;
    public static final int AUTH_GET_USER = 3004;
    public static final int AUTH_LIST_USER = 3005;
    /** ACL 2.0 administration: policies. */
    public static final int AUTH_CREATE_ACL = 3006;
    public static final int AUTH_UPDATE_ACL = 3007;
    public static final int AUTH_DELETE_ACL = 3008;
    public static final int AUTH_GET_ACL = 3009;
    public static final int AUTH_LIST_ACL = 3010;
    /**
     * Ferry's own: the broker's counters for operators (messages in and out per topic, lag per
     * group and queue, DLQ sizes) as a JSON {@code BrokerStatsBody}. Apache's codes stop below
     * 9000, so Ferry's extensions start there; an Apache broker answers 3 REQUEST_CODE_NOT_SUPPORTED.
     */
    public static final int FERRY_GET_BROKER_STATS = 9000;

    private static final Map<Integer, String> NAMES = Map.ofEntries(
            Map.entry(SEND_MESSAGE, "SEND_MESSAGE"),
            Map.entry(CLONE_GROUP_OFFSET, "CLONE_GROUP_OFFSET"),
            Map.entry(GET_SYSTEM_TOPIC_LIST_FROM_NS, "GET_SYSTEM_TOPIC_LIST_FROM_NS"),
            Map.entry(GET_SYSTEM_TOPIC_LIST_FROM_BROKER, "GET_SYSTEM_TOPIC_LIST_FROM_BROKER"),
            Map.entry(PUT_KV_CONFIG, "PUT_KV_CONFIG"),
            Map.entry(GET_KV_CONFIG, "GET_KV_CONFIG"),
            Map.entry(DELETE_KV_CONFIG, "DELETE_KV_CONFIG"),
            Map.entry(GET_KVLIST_BY_NAMESPACE, "GET_KVLIST_BY_NAMESPACE"),
            Map.entry(RESET_CONSUMER_CLIENT_OFFSET, "RESET_CONSUMER_CLIENT_OFFSET"),
            Map.entry(GET_CONSUMER_STATUS_FROM_CLIENT, "GET_CONSUMER_STATUS_FROM_CLIENT"),
            Map.entry(INVOKE_BROKER_TO_RESET_OFFSET, "INVOKE_BROKER_TO_RESET_OFFSET"),
            Map.entry(INVOKE_BROKER_TO_GET_CONSUMER_STATUS, "INVOKE_BROKER_TO_GET_CONSUMER_STATUS"),
            Map.entry(VIEW_BROKER_STATS_DATA, "VIEW_BROKER_STATS_DATA"),
            Map.entry(GET_BROKER_CONSUME_STATS, "GET_BROKER_CONSUME_STATS"),
            Map.entry(UPDATE_NAMESRV_CONFIG, "UPDATE_NAMESRV_CONFIG"),
            Map.entry(GET_NAMESRV_CONFIG, "GET_NAMESRV_CONFIG"),
            Map.entry(GET_SUBSCRIPTIONGROUP_CONFIG, "GET_SUBSCRIPTIONGROUP_CONFIG"),
            Map.entry(PULL_MESSAGE, "PULL_MESSAGE"),
            Map.entry(QUERY_MESSAGE, "QUERY_MESSAGE"),
            Map.entry(QUERY_BROKER_OFFSET, "QUERY_BROKER_OFFSET"),
            Map.entry(QUERY_CONSUMER_OFFSET, "QUERY_CONSUMER_OFFSET"),
            Map.entry(UPDATE_CONSUMER_OFFSET, "UPDATE_CONSUMER_OFFSET"),
            Map.entry(UPDATE_AND_CREATE_TOPIC, "UPDATE_AND_CREATE_TOPIC"),
            Map.entry(GET_ALL_TOPIC_CONFIG, "GET_ALL_TOPIC_CONFIG"),
            Map.entry(GET_TOPIC_NAME_LIST, "GET_TOPIC_NAME_LIST"),
            Map.entry(UPDATE_BROKER_CONFIG, "UPDATE_BROKER_CONFIG"),
            Map.entry(GET_BROKER_CONFIG, "GET_BROKER_CONFIG"),
            Map.entry(GET_BROKER_RUNTIME_INFO, "GET_BROKER_RUNTIME_INFO"),
            Map.entry(SEARCH_OFFSET_BY_TIMESTAMP, "SEARCH_OFFSET_BY_TIMESTAMP"),
            Map.entry(GET_MAX_OFFSET, "GET_MAX_OFFSET"),
            Map.entry(GET_MIN_OFFSET, "GET_MIN_OFFSET"),
            Map.entry(GET_EARLIEST_MSG_STORETIME, "GET_EARLIEST_MSG_STORETIME"),
            Map.entry(VIEW_MESSAGE_BY_ID, "VIEW_MESSAGE_BY_ID"),
            Map.entry(HEART_BEAT, "HEART_BEAT"),
            Map.entry(UNREGISTER_CLIENT, "UNREGISTER_CLIENT"),
            Map.entry(CONSUMER_SEND_MSG_BACK, "CONSUMER_SEND_MSG_BACK"),
            Map.entry(END_TRANSACTION, "END_TRANSACTION"),
            Map.entry(GET_CONSUMER_LIST_BY_GROUP, "GET_CONSUMER_LIST_BY_GROUP"),
            Map.entry(CHECK_TRANSACTION_STATE, "CHECK_TRANSACTION_STATE"),
            Map.entry(NOTIFY_CONSUMER_IDS_CHANGED, "NOTIFY_CONSUMER_IDS_CHANGED"),
            Map.entry(LOCK_BATCH_MQ, "LOCK_BATCH_MQ"),
            Map.entry(UNLOCK_BATCH_MQ, "UNLOCK_BATCH_MQ"),
            Map.entry(GET_ALL_CONSUMER_OFFSET, "GET_ALL_CONSUMER_OFFSET"),
            Map.entry(GET_ALL_DELAY_OFFSET, "GET_ALL_DELAY_OFFSET"),
            Map.entry(GET_TIMER_CHECK_POINT, "GET_TIMER_CHECK_POINT"),
            Map.entry(CHECK_CLIENT_CONFIG, "CHECK_CLIENT_CONFIG"),
            Map.entry(GET_CLIENT_CONFIG, "GET_CLIENT_CONFIG"),
            Map.entry(REGISTER_BROKER, "REGISTER_BROKER"),
            Map.entry(UNREGISTER_BROKER, "UNREGISTER_BROKER"),
            Map.entry(GET_ROUTEINFO_BY_TOPIC, "GET_ROUTEINFO_BY_TOPIC"),
            Map.entry(GET_BROKER_CLUSTER_INFO, "GET_BROKER_CLUSTER_INFO"),
            Map.entry(UPDATE_AND_CREATE_SUBSCRIPTIONGROUP, "UPDATE_AND_CREATE_SUBSCRIPTIONGROUP"),
            Map.entry(GET_ALL_SUBSCRIPTIONGROUP_CONFIG, "GET_ALL_SUBSCRIPTIONGROUP_CONFIG"),
            Map.entry(GET_TOPIC_STATS_INFO, "GET_TOPIC_STATS_INFO"),
            Map.entry(GET_CONSUMER_CONNECTION_LIST, "GET_CONSUMER_CONNECTION_LIST"),
            Map.entry(GET_PRODUCER_CONNECTION_LIST, "GET_PRODUCER_CONNECTION_LIST"),
            Map.entry(GET_ALL_TOPIC_LIST_FROM_NAMESERVER, "GET_ALL_TOPIC_LIST_FROM_NAMESERVER"),
            Map.entry(DELETE_SUBSCRIPTIONGROUP, "DELETE_SUBSCRIPTIONGROUP"),
            Map.entry(GET_CONSUME_STATS, "GET_CONSUME_STATS"),
            Map.entry(DELETE_TOPIC_IN_BROKER, "DELETE_TOPIC_IN_BROKER"),
            Map.entry(DELETE_TOPIC_IN_NAMESRV, "DELETE_TOPIC_IN_NAMESRV"),
            Map.entry(GET_TOPICS_BY_CLUSTER, "GET_TOPICS_BY_CLUSTER"),
            Map.entry(QUERY_TOPIC_CONSUME_BY_WHO, "QUERY_TOPIC_CONSUME_BY_WHO"),
            Map.entry(GET_CONSUMER_RUNNING_INFO, "GET_CONSUMER_RUNNING_INFO"),
            Map.entry(CONSUME_MESSAGE_DIRECTLY, "CONSUME_MESSAGE_DIRECTLY"),
            Map.entry(SEND_MESSAGE_V2, "SEND_MESSAGE_V2"),
            Map.entry(SEND_BATCH_MESSAGE, "SEND_BATCH_MESSAGE"),
            Map.entry(SEND_REPLY_MESSAGE, "SEND_REPLY_MESSAGE"),
            Map.entry(SEND_REPLY_MESSAGE_V2, "SEND_REPLY_MESSAGE_V2"),
            Map.entry(PUSH_REPLY_MESSAGE_TO_CLIENT, "PUSH_REPLY_MESSAGE_TO_CLIENT"),
            Map.entry(GET_TOPIC_CONFIG, "GET_TOPIC_CONFIG"),
            Map.entry(LITE_PULL_MESSAGE, "LITE_PULL_MESSAGE"),
            Map.entry(QUERY_ASSIGNMENT, "QUERY_ASSIGNMENT"),
            Map.entry(AUTH_CREATE_USER, "AUTH_CREATE_USER"),
            Map.entry(AUTH_UPDATE_USER, "AUTH_UPDATE_USER"),
            Map.entry(AUTH_DELETE_USER, "AUTH_DELETE_USER"),
            Map.entry(AUTH_GET_USER, "AUTH_GET_USER"),
            Map.entry(AUTH_LIST_USER, "AUTH_LIST_USER"),
            Map.entry(AUTH_CREATE_ACL, "AUTH_CREATE_ACL"),
            Map.entry(AUTH_UPDATE_ACL, "AUTH_UPDATE_ACL"),
            Map.entry(AUTH_DELETE_ACL, "AUTH_DELETE_ACL"),
            Map.entry(AUTH_GET_ACL, "AUTH_GET_ACL"),
            Map.entry(AUTH_LIST_ACL, "AUTH_LIST_ACL"),
            Map.entry(FERRY_GET_BROKER_STATS, "FERRY_GET_BROKER_STATS"));

    private RequestCode() {
    }

    /** The code's name for logs, or the number itself when the code is not in this catalogue. */
    public static String nameOf(int code) {
        String name = NAMES.get(code);
        return name != null ? name : Integer.toString(code);
    }
}
