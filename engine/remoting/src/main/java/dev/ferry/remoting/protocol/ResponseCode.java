package dev.ferry.remoting.protocol;

import java.util.Map;

/**
 * Response codes of the remoting protocol: how a request went.
 *
 * <p>The numbers are RocketMQ's, so that Apache clients and brokers understand Ferry's
 * commands. Only the codes Ferry sends, answers or must recognise are listed.
 */
public final class ResponseCode {
    public static final int SUCCESS = 0;
    public static final int SYSTEM_ERROR = 1;
    public static final int SYSTEM_BUSY = 2;
    /** Apache's remark when a request code's executor is full. */
    public static final String OVERLOAD_REMARK = "[OVERLOAD]system busy, start flow control for a while";
    public static final int REQUEST_CODE_NOT_SUPPORTED = 3;
    public static final int TRANSACTION_FAILED = 4;
    public static final int FLUSH_DISK_TIMEOUT = 10;
    public static final int SLAVE_NOT_AVAILABLE = 11;
    public static final int FLUSH_SLAVE_TIMEOUT = 12;
    public static final int MESSAGE_ILLEGAL = 13;
    public static final int SERVICE_NOT_AVAILABLE = 14;
    public static final int VERSION_NOT_SUPPORTED = 15;
    public static final int NO_PERMISSION = 16;
    public static final int TOPIC_NOT_EXIST = 17;
    public static final int TOPIC_EXIST_ALREADY = 18;
    public static final int PULL_NOT_FOUND = 19;
    public static final int PULL_RETRY_IMMEDIATELY = 20;
    public static final int PULL_OFFSET_MOVED = 21;
    public static final int QUERY_NOT_FOUND = 22;
    public static final int SUBSCRIPTION_PARSE_FAILED = 23;
    public static final int SUBSCRIPTION_NOT_EXIST = 24;
    public static final int SUBSCRIPTION_NOT_LATEST = 25;
    public static final int SUBSCRIPTION_GROUP_NOT_EXIST = 26;
    public static final int FILTER_DATA_NOT_EXIST = 27;
    public static final int FILTER_DATA_NOT_LATEST = 28;
    public static final int INVALID_PARAMETER = 29;
    public static final int TRANSACTION_SHOULD_COMMIT = 200;
    public static final int TRANSACTION_SHOULD_ROLLBACK = 201;
    public static final int TRANSACTION_STATE_UNKNOW = 202;
    public static final int TRANSACTION_STATE_GROUP_WRONG = 203;
    public static final int NO_BUYER_ID = 204;
    public static final int NOT_IN_CURRENT_UNIT = 205;
    public static final int CONSUMER_NOT_ONLINE = 206;
    public static final int CONSUME_MSG_TIMEOUT = 207;
    public static final int NO_MESSAGE = 208;
    public static final int FLOW_CONTROL = 215;
    public static final int ILLEGAL_OPERATION = 604;
    public static final int GO_AWAY = 1500;

    private static final Map<Integer, String> NAMES = Map.ofEntries(
            Map.entry(SUCCESS, "SUCCESS"),
            Map.entry(SYSTEM_ERROR, "SYSTEM_ERROR"),
            Map.entry(SYSTEM_BUSY, "SYSTEM_BUSY"),
            Map.entry(REQUEST_CODE_NOT_SUPPORTED, "REQUEST_CODE_NOT_SUPPORTED"),
            Map.entry(TRANSACTION_FAILED, "TRANSACTION_FAILED"),
            Map.entry(FLUSH_DISK_TIMEOUT, "FLUSH_DISK_TIMEOUT"),
            Map.entry(SLAVE_NOT_AVAILABLE, "SLAVE_NOT_AVAILABLE"),
            Map.entry(FLUSH_SLAVE_TIMEOUT, "FLUSH_SLAVE_TIMEOUT"),
            Map.entry(MESSAGE_ILLEGAL, "MESSAGE_ILLEGAL"),
            Map.entry(SERVICE_NOT_AVAILABLE, "SERVICE_NOT_AVAILABLE"),
            Map.entry(VERSION_NOT_SUPPORTED, "VERSION_NOT_SUPPORTED"),
            Map.entry(NO_PERMISSION, "NO_PERMISSION"),
            Map.entry(TOPIC_NOT_EXIST, "TOPIC_NOT_EXIST"),
            Map.entry(TOPIC_EXIST_ALREADY, "TOPIC_EXIST_ALREADY"),
            Map.entry(PULL_NOT_FOUND, "PULL_NOT_FOUND"),
            Map.entry(PULL_RETRY_IMMEDIATELY, "PULL_RETRY_IMMEDIATELY"),
            Map.entry(PULL_OFFSET_MOVED, "PULL_OFFSET_MOVED"),
            Map.entry(QUERY_NOT_FOUND, "QUERY_NOT_FOUND"),
            Map.entry(SUBSCRIPTION_PARSE_FAILED, "SUBSCRIPTION_PARSE_FAILED"),
            Map.entry(SUBSCRIPTION_NOT_EXIST, "SUBSCRIPTION_NOT_EXIST"),
            Map.entry(SUBSCRIPTION_NOT_LATEST, "SUBSCRIPTION_NOT_LATEST"),
            Map.entry(SUBSCRIPTION_GROUP_NOT_EXIST, "SUBSCRIPTION_GROUP_NOT_EXIST"),
            Map.entry(FILTER_DATA_NOT_EXIST, "FILTER_DATA_NOT_EXIST"),
            Map.entry(FILTER_DATA_NOT_LATEST, "FILTER_DATA_NOT_LATEST"),
            Map.entry(INVALID_PARAMETER, "INVALID_PARAMETER"),
            Map.entry(TRANSACTION_SHOULD_COMMIT, "TRANSACTION_SHOULD_COMMIT"),
            Map.entry(TRANSACTION_SHOULD_ROLLBACK, "TRANSACTION_SHOULD_ROLLBACK"),
            Map.entry(TRANSACTION_STATE_UNKNOW, "TRANSACTION_STATE_UNKNOW"),
            Map.entry(TRANSACTION_STATE_GROUP_WRONG, "TRANSACTION_STATE_GROUP_WRONG"),
            Map.entry(NO_BUYER_ID, "NO_BUYER_ID"),
            Map.entry(NOT_IN_CURRENT_UNIT, "NOT_IN_CURRENT_UNIT"),
            Map.entry(CONSUMER_NOT_ONLINE, "CONSUMER_NOT_ONLINE"),
            Map.entry(CONSUME_MSG_TIMEOUT, "CONSUME_MSG_TIMEOUT"),
            Map.entry(NO_MESSAGE, "NO_MESSAGE"),
            Map.entry(FLOW_CONTROL, "FLOW_CONTROL"),
            Map.entry(ILLEGAL_OPERATION, "ILLEGAL_OPERATION"),
            Map.entry(GO_AWAY, "GO_AWAY"));

    private ResponseCode() {
    }

    /** The code's name for logs, or the number itself when the code is not in this catalogue. */
    public static String nameOf(int code) {
        String name = NAMES.get(code);
        return name != null ? name : Integer.toString(code);
    }
}
