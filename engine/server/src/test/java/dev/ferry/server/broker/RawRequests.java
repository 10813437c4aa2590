package dev.ferry.server.broker;

import dev.ferry.remoting.protocol.RequestCode;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.heartbeat.ConsumeType;
import org.apache.rocketmq.remoting.protocol.heartbeat.ConsumerData;
import org.apache.rocketmq.remoting.protocol.heartbeat.HeartbeatData;
import org.apache.rocketmq.remoting.protocol.heartbeat.MessageModel;
import org.apache.rocketmq.remoting.protocol.heartbeat.SubscriptionData;

/** Requests as Apache's remoting client sends them, built by hand so that a test controls every field. */
final class RawRequests {

    private RawRequests() {
    }

    static RemotingCommand command(int code, Map<String, String> fields) {
        RemotingCommand request = RemotingCommand.createRequestCommand(code, null);
        fields.forEach(request::addExtField);
        return request;
    }

    static RemotingCommand send(String topic, String body, String properties) {
        RemotingCommand request = command(RequestCode.SEND_MESSAGE_V2, Map.of("a", "PG_LIMITS", "b", topic, "c",
                "TBW102", "d", "2", "e", "0", "f", "0", "g", "1", "h", "0", "i", properties));
        request.setBody(body.getBytes(StandardCharsets.UTF_8));
        return request;
    }

    /** A pull of queue 0 from offset 0 that carries its subscription ({@code *}, TAG). */
    static RemotingCommand pull(String group, String topic, long suspendMillis) {
        return pull(group, topic, 0, suspendMillis);
    }

    /** As {@link #pull(String, String, long)}, from {@code queueOffset}. */
    static RemotingCommand pull(String group, String topic, long queueOffset, long suspendMillis) {
        Map<String, String> fields = new HashMap<>(Map.of("consumerGroup", group, "topic", topic, "queueId", "0",
                "queueOffset", Long.toString(queueOffset), "maxMsgNums", "32", "sysFlag", "6", "commitOffset", "0"));
        fields.putAll(Map.of("suspendTimeoutMillis", Long.toString(suspendMillis), "subVersion", "0",
                "subscription", "*", "expressionType", "TAG"));
        return command(RequestCode.PULL_MESSAGE, fields);
    }

    /**
     * A pull of queue 0 from offset 0 that leaves the subscription to the broker (the one the group's heartbeat
     * brought), as Apache's push consumer pulls, expecting at least {@code subVersion}.
     */
    static RemotingCommand pullBySubscription(String group, String topic, long suspendMillis, long subVersion) {
        return pullBySubscription(group, topic, suspendMillis, subVersion, 32);
    }

    static RemotingCommand pullBySubscription(String group, String topic, long suspendMillis, long subVersion,
                                              int maxMessages) {
        return command(RequestCode.PULL_MESSAGE, Map.of("consumerGroup", group, "topic", topic, "queueId", "0",
                "queueOffset", "0", "maxMsgNums", Integer.toString(maxMessages), "sysFlag", "2", "commitOffset", "0",
                "suspendTimeoutMillis", Long.toString(suspendMillis), "subVersion", Long.toString(subVersion)));
    }

    /** As {@link #pullBySubscription(String, String, long, long)}, naming the consumer's expression type. */
    static RemotingCommand pullBySubscription(String group, String topic, long suspendMillis, long subVersion,
                                              String expressionType) {
        RemotingCommand pull = pullBySubscription(group, topic, suspendMillis, subVersion);
        pull.addExtField("expressionType", expressionType);
        return pull;
    }

    static RemotingCommand commit(String group, String topic, int queueId, long offset) {
        return command(RequestCode.UPDATE_CONSUMER_OFFSET, Map.of("consumerGroup", group, "topic", topic,
                "queueId", Integer.toString(queueId), "commitOffset", Long.toString(offset)));
    }

    static RemotingCommand heartbeat(String clientId, String group, String topic, String type, String expression) {
        return heartbeat(clientId, group, topic, type, expression, System.currentTimeMillis());
    }

    static RemotingCommand heartbeat(String clientId, String group, String topic, String type, String expression,
                                     long subVersion) {
        HeartbeatData heartbeat = new HeartbeatData();
        heartbeat.setClientID(clientId);
        ConsumerData consumer = new ConsumerData();
        consumer.setGroupName(group);
        consumer.setConsumeType(ConsumeType.CONSUME_PASSIVELY);
        consumer.setMessageModel(MessageModel.CLUSTERING);
        SubscriptionData subscription = new SubscriptionData(topic, expression);
        subscription.setExpressionType(type);
        subscription.setSubVersion(subVersion);
        consumer.getSubscriptionDataSet().add(subscription);
        heartbeat.getConsumerDataSet().add(consumer);
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.HEART_BEAT, null);
        request.setBody(heartbeat.encode());
        return request;
    }
}
