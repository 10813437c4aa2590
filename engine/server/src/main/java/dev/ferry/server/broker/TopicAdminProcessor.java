package dev.ferry.server.broker;

import dev.ferry.format.NameRules;
import dev.ferry.format.SystemTopics;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestContext;
import dev.ferry.remoting.RequestProcessor;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.body.GroupList;
import dev.ferry.remoting.protocol.body.MessageQueueBody;
import dev.ferry.remoting.protocol.body.TopicConfig;
import dev.ferry.remoting.protocol.body.TopicList;
import dev.ferry.remoting.protocol.body.TopicStatsTable;
import dev.ferry.remoting.protocol.header.CreateTopicRequestHeader;
import dev.ferry.remoting.protocol.header.DeleteTopicRequestHeader;
import dev.ferry.remoting.protocol.header.TopicRequestHeader;
import dev.ferry.store.MessageStore;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The topic requests of Apache's admin tools: UPDATE_AND_CREATE_TOPIC, DELETE_TOPIC_IN_BROKER, GET_TOPIC_STATS_INFO,
 * GET_TOPIC_CONFIG, GET_ALL_TOPIC_CONFIG and QUERY_TOPIC_CONSUME_BY_WHO, answered as Apache's broker answers them.
 * A created, changed or deleted topic is registered with the name servers at once.
 */
final class TopicAdminProcessor implements RequestProcessor {
    static final int[] CODES = {RequestCode.UPDATE_AND_CREATE_TOPIC, RequestCode.DELETE_TOPIC_IN_BROKER,
        RequestCode.GET_TOPIC_STATS_INFO, RequestCode.GET_TOPIC_CONFIG, RequestCode.GET_ALL_TOPIC_CONFIG,
        RequestCode.QUERY_TOPIC_CONSUME_BY_WHO, RequestCode.GET_SYSTEM_TOPIC_LIST_FROM_BROKER};
    /** How long a deletion waits for the store to drop the topic's queues. */
    private static final Duration DELETION_WAIT = Duration.ofSeconds(30);

    private final BrokerConfig config;
    private final TopicConfigTable topics;
    private final ConsumerOffsetTable offsets;
    private final ConsumerGroups consumers;
    private final MessageStore store;
    private final Consumer<String> forgetTraffic;
    private final StatsWindows puts;
    private final BodyCodec json;
    private final Runnable topicsChanged;
    private final dev.ferry.format.Clock clock;
    private final Creations creations;

    /** Is told of each creation request: whether it succeeded, whether of a system topic, how long it took. */
    @FunctionalInterface
    interface Creations {
        void created(boolean success, boolean system, long millis);
    }

    TopicAdminProcessor(BrokerConfig config, TopicConfigTable topics, ConsumerOffsetTable offsets,
                        ConsumerGroups consumers, MessageStore store, Consumer<String> forgetTraffic,
                        StatsWindows puts, BodyCodec json, Runnable topicsChanged, dev.ferry.format.Clock clock,
                        Creations creations) {
        this.clock = clock;
        this.creations = creations;
        this.config = config;
        this.topics = topics;
        this.offsets = offsets;
        this.consumers = consumers;
        this.store = store;
        this.forgetTraffic = forgetTraffic;
        this.puts = puts;
        this.json = json;
        this.topicsChanged = topicsChanged;
    }

    @Override
    public RemotingCommand process(RequestContext context, RemotingCommand request) {
        return switch (request.code()) {
            case RequestCode.UPDATE_AND_CREATE_TOPIC -> timed(request);
            case RequestCode.DELETE_TOPIC_IN_BROKER -> delete(request);
            case RequestCode.GET_TOPIC_STATS_INFO -> stats(request);
            case RequestCode.GET_TOPIC_CONFIG -> topicConfig(request);
            case RequestCode.GET_ALL_TOPIC_CONFIG -> ok(request, json.encode(topics.snapshot()));
            case RequestCode.QUERY_TOPIC_CONSUME_BY_WHO -> consumedBy(request);
            case RequestCode.GET_SYSTEM_TOPIC_LIST_FROM_BROKER -> ok(request, json.encode(new TopicList(
                    topics.all().keySet().stream().filter(t -> SystemTopics.isSystemTopic(t)
                            || t.equals(config.clusterName()) || t.equals(config.brokerName())).sorted().toList(),
                    null)));
            default -> RemotingCommand.responseTo(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED).build();
        };
    }

    /** Creates or updates, and tells how long it took (Apache's topic creation time, failures included). */
    private RemotingCommand timed(RemotingCommand request) {
        long start = clock.millis();
        RemotingCommand answer = createOrUpdate(request);
        String topic = request.extField("topic");
        creations.created(answer.code() == ResponseCode.SUCCESS, topic != null && SystemTopics.isSystemTopic(topic),
                clock.millis() - start);
        return answer;
    }

    private RemotingCommand createOrUpdate(RemotingCommand request) {
        CreateTopicRequestHeader h = request.header(CreateTopicRequestHeader.class);
        String topic = h.topic();
        String refusal = nameRefusal(topic);
        if (refusal != null) {
            return error(request, ResponseCode.INVALID_PARAMETER, refusal);
        }
        if (!"SINGLE_TAG".equals(h.topicFilterType()) && !"MULTI_TAG".equals(h.topicFilterType())) {
            return error(request, ResponseCode.INVALID_PARAMETER, "topicFilterType must be SINGLE_TAG or MULTI_TAG, "
                    + "not " + NameRules.shown(h.topicFilterType()));
        }
        Optional<TopicConfig> existing = topics.get(topic);
        Map<String, String> attributes;
        try {
            attributes = TopicAttributes.alter(existing.map(TopicConfig::attributes).orElse(Map.of()),
                    h.attributes(), existing.isEmpty());
        } catch (IllegalArgumentException e) {
            return error(request, ResponseCode.SYSTEM_ERROR, e.getMessage());
        }
        TopicConfig wanted = new TopicConfig(topic, h.readQueueNums(), h.writeQueueNums(), h.perm(),
                h.topicFilterType(), h.topicSysFlag() == null ? 0 : h.topicSysFlag(), h.order(), attributes);
        Optional<String> problem = topics.put(wanted);
        if (problem.isPresent()) {
            return error(request, ResponseCode.INVALID_PARAMETER, problem.get());
        }
        topicsChanged.run();
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build();
    }

    /** Why an operator may not create or delete the topic: Apache's remarks. */
    private String nameRefusal(String topic) {
        if (topic == null || topic.isBlank()) {
            return "The specified topic is blank.";
        }
        if (!NameRules.hasOnlyAllowedCharacters(topic)) {
            return "The specified topic contains illegal characters, allowing only " + NameRules.ALLOWED;
        }
        if (topic.length() > NameRules.TOPIC_MAX_LENGTH) {
            return "The specified topic is longer than topic max length.";
        }
        if (SystemTopics.isSystemTopic(topic) || topic.equals(config.clusterName())
                || topic.equals(config.brokerName()) || topic.equals(SystemTopics.replyTopic(config.clusterName()))) {
            return "The topic[" + topic + "] is conflict with system topic.";
        }
        return null;
    }

    private RemotingCommand delete(RemotingCommand request) {
        String topic = request.header(DeleteTopicRequestHeader.class).topic();
        String refusal = nameRefusal(topic);
        if (refusal != null) {
            return error(request, ResponseCode.INVALID_PARAMETER, refusal);
        }
        topics.remove(topic);
        int dropped = offsets.removeTopic(topic);
        forgetTraffic.accept(topic);
        try {
            int queues = store.deleteTopic(topic).get(DELETION_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            store.flush(); // the checkpoint passes the deletion, so a restart does not dispatch the old entries again
            if (queues > 0 || dropped > 0) {
                System.getLogger(TopicAdminProcessor.class.getName()).log(System.Logger.Level.INFO,
                        "topic {0} deleted: {1} queues, {2} committed offsets", topic, queues, dropped);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return error(request, ResponseCode.SYSTEM_ERROR, "interrupted while deleting the queues of " + topic);
        } catch (ExecutionException | TimeoutException e) {
            return error(request, ResponseCode.SYSTEM_ERROR, "cannot delete the queues of " + topic + ": " + e);
        }
        topicsChanged.run();
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build();
    }

    private RemotingCommand stats(RemotingCommand request) {
        String topic = request.header(TopicRequestHeader.class).topic();
        Optional<TopicConfig> found = topics.get(topic);
        if (found.isEmpty()) {
            return error(request, ResponseCode.TOPIC_NOT_EXIST, "topic[" + topic + "] not exist");
        }
        int queues = Math.max(found.get().readQueueNums(), found.get().writeQueueNums());
        Map<MessageQueueBody, TopicStatsTable.TopicOffset> table = new HashMap<>();
        for (int queueId = 0; queueId < queues; queueId++) {
            long min = Math.max(0, store.minOffset(topic, queueId));
            long max = Math.max(0, store.nextOffset(topic, queueId));
            table.put(new MessageQueueBody(topic, config.brokerName(), queueId),
                    new TopicStatsTable.TopicOffset(min, max, QueueTimes.storeTime(store, topic, queueId, max - 1)));
        }
        double putTps = puts.of(topic).map(data -> data.statsMinute().tps()).orElse(0.0);
        return ok(request, json.encode(new TopicStatsTable(table, putTps)));
    }

    private RemotingCommand topicConfig(RemotingCommand request) {
        String topic = request.header(TopicRequestHeader.class).topic();
        return topics.get(topic).map(found -> ok(request, json.encode(found)))
                .orElseGet(() -> error(request, ResponseCode.TOPIC_NOT_EXIST, "No topic in this broker. topic: "
                        + topic));
    }

    private RemotingCommand consumedBy(RemotingCommand request) {
        String topic = request.header(TopicRequestHeader.class).topic();
        EntryChecks.topic("topic", topic);
        Set<String> groups = new TreeSet<>(consumers.subscribersOf(topic));
        groups.addAll(offsets.groupsOn(topic));
        return ok(request, json.encode(new GroupList(groups)));
    }

    private static RemotingCommand ok(RemotingCommand request, byte[] body) {
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).body(body).build();
    }

    private static RemotingCommand error(RemotingCommand request, int code, String remark) {
        return RemotingCommand.responseTo(request, code).remark(remark).build();
    }
}
