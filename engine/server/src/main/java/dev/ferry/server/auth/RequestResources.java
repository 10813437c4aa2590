package dev.ferry.server.auth;

import static dev.ferry.server.auth.Action.CREATE;
import static dev.ferry.server.auth.Action.DELETE;
import static dev.ferry.server.auth.Action.GET;
import static dev.ferry.server.auth.Action.PUB;
import static dev.ferry.server.auth.Action.SUB;
import static dev.ferry.server.auth.Action.UPDATE;

import dev.ferry.format.MessageProperties;
import dev.ferry.format.NameRules;
import dev.ferry.format.StoredMessageView;
import dev.ferry.format.SystemTopics;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.body.ConsumerData;
import dev.ferry.remoting.protocol.body.HeartbeatData;
import dev.ferry.remoting.protocol.body.LockBatchRequestBody;
import dev.ferry.remoting.protocol.body.MessageQueueBody;
import dev.ferry.remoting.protocol.body.SubscriptionData;
import dev.ferry.remoting.protocol.header.SendMessageRequestHeaderV2;
import java.util.ArrayList;
import java.util.List;

/**
 * What each request code needs, as Apache RocketMQ 5.3 decides it: sends need Pub on their topic (a send to a retry
 * topic, Sub on its group), pulls Sub on topic and group, heartbeats Sub on every group and subscribed topic, offset
 * reads Sub or Get and offset writes Sub or Update, queries Get, broker registrations and user and policy changes
 * Update on their cluster (reading users and policies: Get). A
 * retry topic {@code %RETRY%group} stands for its group. Codes without a rule here (cluster information, client
 * config checks) need only an authenticated user. Ferry also checks lite pulls as pulls, which Apache leaves open.
 *
 * <p>Where Ferry is stricter than Apache: a pull or an offset request of a retry or dead-letter topic needs the group
 * that topic belongs to, whatever group the request names; the all-offsets codes a slave copies need the cluster's
 * Get; and a request that names a message only by its commit-log offset or id is checked again once its processor
 * has found the message ({@link #ofMessage}), against what that message is.
 */
public final class RequestResources {
    private final BodyCodec json;
    private final String clusterName;

    /** @param clusterName the cluster the broker belongs to: what its cluster-wide requests act on */
    public RequestResources(BodyCodec json, String clusterName) {
        this.json = json;
        this.clusterName = clusterName;
    }

    /**
     * What {@code request} needs; every item must be allowed.
     *
     * @throws IllegalArgumentException when a field naming a resource is missing or a body cannot be read
     */
    public List<RequiredAccess> of(RemotingCommand request) {
        return switch (request.code()) {
            case RequestCode.SEND_MESSAGE, RequestCode.SEND_REPLY_MESSAGE -> send(field(request, "topic"));
            case RequestCode.SEND_MESSAGE_V2, RequestCode.SEND_BATCH_MESSAGE, RequestCode.SEND_REPLY_MESSAGE_V2 ->
                    send(firstOf(request, SendMessageRequestHeaderV2.TOPIC, "topic"));
            case RequestCode.CONSUMER_SEND_MSG_BACK -> List.of(RequiredAccess.group(field(request, "group"), SUB));
            case RequestCode.PULL_MESSAGE, RequestCode.LITE_PULL_MESSAGE ->
                    topicAndGroup(request, "consumerGroup", SUB);
            case RequestCode.QUERY_CONSUMER_OFFSET -> topicAndGroup(request, "consumerGroup", SUB, GET);
            case RequestCode.UPDATE_CONSUMER_OFFSET -> topicAndGroup(request, "consumerGroup", SUB, UPDATE);
            case RequestCode.QUERY_MESSAGE -> List.of(topicOrGroup(field(request, "topic"), SUB, GET));
            case RequestCode.VIEW_MESSAGE_BY_ID -> optionalTopic(request, GET);
            case RequestCode.GET_MAX_OFFSET, RequestCode.GET_MIN_OFFSET, RequestCode.SEARCH_OFFSET_BY_TIMESTAMP,
                    RequestCode.GET_EARLIEST_MSG_STORETIME -> List.of(topicOrGroup(field(request, "topic"), GET));
            case RequestCode.END_TRANSACTION -> optionalTopic(request, PUB);
            case RequestCode.HEART_BEAT -> heartbeat(request);
            case RequestCode.UNREGISTER_CLIENT -> optionalGroup(request, "consumerGroup", SUB);
            case RequestCode.GET_CONSUMER_LIST_BY_GROUP ->
                    List.of(RequiredAccess.group(field(request, "consumerGroup"), SUB, GET));
            case RequestCode.LOCK_BATCH_MQ, RequestCode.UNLOCK_BATCH_MQ -> locks(request);
            case RequestCode.GET_ROUTEINFO_BY_TOPIC -> route(field(request, "topic"));
            case RequestCode.REGISTER_BROKER, RequestCode.UNREGISTER_BROKER ->
                    List.of(RequiredAccess.cluster(field(request, "clusterName"), UPDATE));
            case RequestCode.UPDATE_AND_CREATE_TOPIC -> List.of(RequiredAccess.topic(field(request, "topic"), CREATE));
            case RequestCode.DELETE_TOPIC_IN_BROKER -> List.of(RequiredAccess.topic(field(request, "topic"), DELETE));
            case RequestCode.GET_CONSUMER_CONNECTION_LIST, RequestCode.GET_CONSUMER_RUNNING_INFO,
                    RequestCode.CONSUME_MESSAGE_DIRECTLY ->
                    List.of(RequiredAccess.group(field(request, "consumerGroup"), GET));
            case RequestCode.INVOKE_BROKER_TO_GET_CONSUMER_STATUS ->
                    List.of(RequiredAccess.group(field(request, "group"), GET));
            case RequestCode.GET_SUBSCRIPTIONGROUP_CONFIG ->
                    List.of(RequiredAccess.group(field(request, "group"), GET));
            case RequestCode.DELETE_SUBSCRIPTIONGROUP ->
                    List.of(RequiredAccess.group(field(request, "groupName"), DELETE));
            case RequestCode.GET_CONSUME_STATS -> consumeStats(request);
            case RequestCode.INVOKE_BROKER_TO_RESET_OFFSET -> List.of(RequiredAccess.group(field(request, "group"),
                    UPDATE), topicOrGroup(field(request, "topic"), UPDATE));
            case RequestCode.CLONE_GROUP_OFFSET -> List.of(RequiredAccess.group(field(request, "srcGroup"), GET),
                    RequiredAccess.group(field(request, "destGroup"), UPDATE));
            case RequestCode.GET_TOPIC_CONFIG, RequestCode.GET_TOPIC_STATS_INFO,
                    RequestCode.QUERY_TOPIC_CONSUME_BY_WHO -> List.of(topicOrGroup(field(request, "topic"), GET));
            case RequestCode.DELETE_TOPIC_IN_NAMESRV -> List.of(RequiredAccess.topic(field(request, "topic"), DELETE));
            // Apache leaves these open to any authenticated user; they change or reveal the whole cluster, so
            // Ferry asks for the cluster's Update or Get
            case RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP, RequestCode.UPDATE_BROKER_CONFIG,
                    RequestCode.PUT_KV_CONFIG, RequestCode.DELETE_KV_CONFIG, RequestCode.UPDATE_NAMESRV_CONFIG ->
                    List.of(RequiredAccess.cluster(clusterName, UPDATE));
            // every group's offsets, the delay and timer progress: what a slave copies, so the master's whole state
            case RequestCode.GET_ALL_CONSUMER_OFFSET, RequestCode.GET_ALL_DELAY_OFFSET,
                    RequestCode.GET_TIMER_CHECK_POINT, RequestCode.GET_BROKER_CONFIG,
                    RequestCode.GET_BROKER_RUNTIME_INFO,
                    RequestCode.GET_ALL_SUBSCRIPTIONGROUP_CONFIG, RequestCode.GET_ALL_TOPIC_CONFIG,
                    RequestCode.GET_BROKER_CONSUME_STATS, RequestCode.VIEW_BROKER_STATS_DATA,
                    RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER, RequestCode.GET_KV_CONFIG,
                    RequestCode.GET_KVLIST_BY_NAMESPACE, RequestCode.GET_NAMESRV_CONFIG,
                    RequestCode.GET_PRODUCER_CONNECTION_LIST, RequestCode.GET_SYSTEM_TOPIC_LIST_FROM_NS,
                    RequestCode.GET_SYSTEM_TOPIC_LIST_FROM_BROKER ->
                    List.of(RequiredAccess.cluster(clusterName, GET));
            case RequestCode.FERRY_GET_BROKER_STATS, RequestCode.AUTH_GET_USER, RequestCode.AUTH_LIST_USER,
                    RequestCode.AUTH_GET_ACL, RequestCode.AUTH_LIST_ACL ->
                    List.of(RequiredAccess.cluster(clusterName, GET));
            case RequestCode.AUTH_CREATE_USER, RequestCode.AUTH_UPDATE_USER, RequestCode.AUTH_DELETE_USER,
                    RequestCode.AUTH_CREATE_ACL, RequestCode.AUTH_UPDATE_ACL, RequestCode.AUTH_DELETE_ACL ->
                    List.of(RequiredAccess.cluster(clusterName, UPDATE));
            default -> List.of();
        };
    }

    /**
     * What {@code request} needs of the message it named only by a commit-log offset or an id, now that its processor
     * has found it: nothing in the request says what that message is. A view (VIEW_MESSAGE_BY_ID,
     * CONSUME_MESSAGE_DIRECTLY) needs Get on the message's topic; a send-back Sub on it, and on the topic a retried
     * message came from ({@code RETRY_TOPIC}); the end of a transaction Pub on the half message's real topic
     * ({@code REAL_TOPIC}), as its send needed. Any other code reading a message needs Get on its topic.
     */
    public List<RequiredAccess> ofMessage(RemotingCommand request, StoredMessageView message) {
        return switch (request.code()) {
            case RequestCode.CONSUMER_SEND_MSG_BACK -> sentBack(message);
            case RequestCode.END_TRANSACTION -> halfMessage(message);
            default -> stored(message.topic(), GET);
        };
    }

    private static List<RequiredAccess> sentBack(StoredMessageView message) {
        List<RequiredAccess> needed = new ArrayList<>(stored(message.topic(), SUB));
        String origin = message.property(MessageProperties.RETRY_TOPIC);
        // a copy a consumer sent back keeps the topic it came from; in any other topic the property is the producer's,
        // and a name no topic can have is no topic anyone reads
        if (SystemTopics.groupOf(message.topic()) != null && origin != null && NameRules.isValidTopic(origin)) {
            for (RequiredAccess access : stored(origin, SUB)) {
                if (!needed.contains(access)) {
                    needed.add(access);
                }
            }
        }
        return needed;
    }

    /** What deciding the transaction of {@code half} needs: what ending it needs (END_TRANSACTION). */
    List<RequiredAccess> toDecide(StoredMessageView half) {
        return halfMessage(half);
    }

    private static List<RequiredAccess> halfMessage(StoredMessageView half) {
        // the broker wrote it from the send's own topic; a half message without one is the half topic's alone
        String realTopic = half.property(MessageProperties.REAL_TOPIC);
        return realTopic == null || !NameRules.isValidTopic(realTopic)
                ? List.of(RequiredAccess.topic(half.topic(), PUB)) : send(realTopic);
    }

    /**
     * What guards the messages stored in {@code topic}: a retry topic's, the group it belongs to; a dead-letter
     * topic's, the topic and its group; any other topic's, the topic.
     */
    private static List<RequiredAccess> stored(String topic, Action... actions) {
        String group = SystemTopics.groupOf(topic);
        if (group == null) {
            return List.of(RequiredAccess.topic(topic, actions));
        }
        if (SystemTopics.isRetryTopic(topic)) {
            return List.of(RequiredAccess.group(group, actions));
        }
        return List.of(RequiredAccess.topic(topic, actions), RequiredAccess.group(group, actions));
    }

    private static List<RequiredAccess> send(String topic) {
        if (SystemTopics.isRetryTopic(topic)) {
            return List.of(RequiredAccess.group(SystemTopics.groupOf(topic), SUB));
        }
        return List.of(RequiredAccess.topic(topic, PUB));
    }

    private static List<RequiredAccess> consumeStats(RemotingCommand request) {
        List<RequiredAccess> needed = new ArrayList<>();
        needed.add(RequiredAccess.group(field(request, "consumerGroup"), GET));
        String topic = request.extField("topic");
        if (topic != null && !topic.isBlank()) {
            needed.add(topicOrGroup(topic, GET));
        }
        String topics = request.extField("topicList");
        if (topics != null) {
            for (String listed : topics.split(";")) {
                if (!listed.isBlank()) {
                    needed.add(topicOrGroup(listed.trim(), GET));
                }
            }
        }
        return needed;
    }

    private static List<RequiredAccess> route(String topic) {
        if (topic.equals(SystemTopics.AUTO_CREATE_TOPIC)) {
            return List.of(); // every producer asks for it before its topic exists
        }
        if (SystemTopics.isRetryTopic(topic)) {
            return List.of(RequiredAccess.group(SystemTopics.groupOf(topic), SUB, GET));
        }
        return List.of(RequiredAccess.topic(topic, PUB, SUB, GET));
    }

    private static RequiredAccess topicOrGroup(String topic, Action... actions) {
        return SystemTopics.isRetryTopic(topic)
                ? RequiredAccess.group(SystemTopics.groupOf(topic), actions)
                : RequiredAccess.topic(topic, actions);
    }

    /**
     * The topic and the group a request names; a retry or dead-letter topic also needs the group it belongs to, so
     * that no group's retries are read under another group's name.
     */
    private static List<RequiredAccess> topicAndGroup(RemotingCommand request, String groupField, Action... actions) {
        String topic = field(request, "topic");
        RequiredAccess group = RequiredAccess.group(field(request, groupField), actions);
        List<RequiredAccess> needed = new ArrayList<>(stored(topic, actions));
        if (!needed.contains(group)) {
            needed.add(group);
        }
        return needed;
    }

    private static List<RequiredAccess> optionalTopic(RemotingCommand request, Action action) {
        String topic = request.extField("topic");
        return topic == null || topic.isBlank() ? List.of() : List.of(topicOrGroup(topic, action));
    }

    private static List<RequiredAccess> optionalGroup(RemotingCommand request, String field, Action action) {
        String group = request.extField(field);
        return group == null || group.isBlank() ? List.of() : List.of(RequiredAccess.group(group, action));
    }

    private List<RequiredAccess> heartbeat(RemotingCommand request) {
        if (request.bodyLength() == 0) {
            return List.of();
        }
        HeartbeatData heartbeat = json.decode(request.body(), HeartbeatData.class);
        List<RequiredAccess> needed = new ArrayList<>();
        if (heartbeat.consumerDataSet() != null) {
            for (ConsumerData consumer : heartbeat.consumerDataSet()) {
                needed.add(RequiredAccess.group(required("groupName", consumer.groupName()), SUB));
                for (SubscriptionData subscription : consumer.subscriptionDataSet()) {
                    String topic = required("topic", subscription.topic());
                    if (!SystemTopics.isRetryTopic(topic)) {
                        needed.add(RequiredAccess.topic(topic, SUB));
                    }
                }
            }
        }
        return needed;
    }

    private List<RequiredAccess> locks(RemotingCommand request) {
        LockBatchRequestBody body = json.decode(request.body(), LockBatchRequestBody.class);
        List<RequiredAccess> needed = new ArrayList<>();
        needed.add(RequiredAccess.group(required("consumerGroup", body.consumerGroup()), SUB));
        if (body.mqSet() != null) {
            for (MessageQueueBody queue : body.mqSet()) {
                String topic = required("topic", queue.topic());
                if (!SystemTopics.isRetryTopic(topic)) {
                    needed.add(RequiredAccess.topic(topic, SUB));
                }
            }
        }
        return needed;
    }

    private static String field(RemotingCommand request, String name) {
        return required(name, request.extField(name));
    }

    private static String firstOf(RemotingCommand request, String shortName, String longName) {
        String value = request.extField(shortName);
        return value != null ? value : field(request, longName);
    }

    private static String required(String name, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("the request names no " + name);
        }
        return value;
    }
}
