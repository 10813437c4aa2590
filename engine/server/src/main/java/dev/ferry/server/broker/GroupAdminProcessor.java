package dev.ferry.server.broker;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ferry.format.NameRules;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestContext;
import dev.ferry.remoting.RequestProcessor;
import dev.ferry.remoting.protocol.BadRequestException;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.body.Connection;
import dev.ferry.remoting.protocol.body.ConsumeStats;
import dev.ferry.remoting.protocol.body.ConsumeStatsList;
import dev.ferry.remoting.protocol.body.ConsumerConnection;
import dev.ferry.remoting.protocol.body.MessageQueueBody;
import dev.ferry.remoting.protocol.body.ProducerConnection;
import dev.ferry.remoting.protocol.body.SubscriptionGroupConfig;
import dev.ferry.remoting.protocol.body.TopicConfig;
import dev.ferry.remoting.protocol.header.BrokerConsumeStatsRequestHeader;
import dev.ferry.remoting.protocol.header.CloneGroupOffsetRequestHeader;
import dev.ferry.remoting.protocol.header.ConsumerGroupRequestHeader;
import dev.ferry.remoting.protocol.header.DeleteSubscriptionGroupRequestHeader;
import dev.ferry.remoting.protocol.header.GetConsumeStatsRequestHeader;
import dev.ferry.remoting.protocol.header.ProducerGroupRequestHeader;
import dev.ferry.remoting.protocol.header.SubscriptionGroupRequestHeader;
import dev.ferry.store.MessageStore;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * The consumer and producer group requests of Apache's admin tools: subscription groups (create, update, get, list,
 * delete), consume statistics of one group or all, offset cloning, and the connections of a consumer or producer
 * group; answered as Apache's broker answers them.
 */
final class GroupAdminProcessor implements RequestProcessor {
    static final int[] CODES = {RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP,
        RequestCode.GET_ALL_SUBSCRIPTIONGROUP_CONFIG, RequestCode.GET_SUBSCRIPTIONGROUP_CONFIG,
        RequestCode.DELETE_SUBSCRIPTIONGROUP, RequestCode.GET_CONSUME_STATS, RequestCode.GET_BROKER_CONSUME_STATS,
        RequestCode.CLONE_GROUP_OFFSET, RequestCode.GET_CONSUMER_CONNECTION_LIST,
        RequestCode.GET_PRODUCER_CONNECTION_LIST};
    /** Topics one GET_CONSUME_STATS may name. */
    static final int MAX_TOPICS = 1024;
    /** JSON a group's {@code groupRetryPolicy}, and its {@code subscriptionDataSet}, may each take. */
    static final int MAX_KEPT_JSON_BYTES = 4 * 1024;

    private final String brokerName;
    private final TopicConfigTable topics;
    private final SubscriptionGroupTable groups;
    private final ConsumerOffsetTable offsets;
    private final PullOffsets pullOffsets;
    private final ConsumerGroups consumers;
    private final ProducerGroups producers;
    private final MessageStore store;
    private final StatsWindows gets;
    private final BodyCodec json;
    private final Supplier<String> brokerAddress;
    private final dev.ferry.format.Clock clock;
    private final TopicAdminProcessor.Creations creations;
    /** Forgets what the broker counts and tracks in memory of a deleted group. */
    private final java.util.function.Consumer<String> groupDeleted;

    GroupAdminProcessor(String brokerName, TopicConfigTable topics, SubscriptionGroupTable groups,
                        ConsumerOffsetTable offsets, PullOffsets pullOffsets, ConsumerGroups consumers,
                        ProducerGroups producers,
                        MessageStore store, StatsWindows gets, BodyCodec json, Supplier<String> brokerAddress,
                        dev.ferry.format.Clock clock, TopicAdminProcessor.Creations creations,
                        java.util.function.Consumer<String> groupDeleted) {
        this.clock = clock;
        this.groupDeleted = groupDeleted;
        this.creations = creations;
        this.brokerName = brokerName;
        this.topics = topics;
        this.groups = groups;
        this.offsets = offsets;
        this.pullOffsets = pullOffsets;
        this.consumers = consumers;
        this.producers = producers;
        this.store = store;
        this.gets = gets;
        this.json = json;
        this.brokerAddress = brokerAddress;
    }

    @Override
    public RemotingCommand process(RequestContext context, RemotingCommand request) {
        return switch (request.code()) {
            case RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP -> {
                long start = clock.millis();
                RemotingCommand answer = putGroup(request);
                creations.created(answer.code() == ResponseCode.SUCCESS, false, clock.millis() - start);
                yield answer;
            }
            case RequestCode.GET_ALL_SUBSCRIPTIONGROUP_CONFIG -> ok(request, json.encode(groups.snapshot()));
            case RequestCode.GET_SUBSCRIPTIONGROUP_CONFIG -> getGroup(request);
            case RequestCode.DELETE_SUBSCRIPTIONGROUP -> deleteGroup(request);
            case RequestCode.GET_CONSUME_STATS -> consumeStats(request);
            case RequestCode.GET_BROKER_CONSUME_STATS -> brokerConsumeStats(request);
            case RequestCode.CLONE_GROUP_OFFSET -> cloneOffsets(request);
            case RequestCode.GET_CONSUMER_CONNECTION_LIST -> consumerConnections(request);
            case RequestCode.GET_PRODUCER_CONNECTION_LIST -> producerConnections(request);
            default -> RemotingCommand.responseTo(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED).build();
        };
    }

    private RemotingCommand putGroup(RemotingCommand request) {
        SubscriptionGroupConfig config = json.decode(request.body(), SubscriptionGroupConfig.class);
        String tooLarge = tooLarge("groupRetryPolicy", config.groupRetryPolicy());
        if (tooLarge == null) {
            tooLarge = tooLarge("subscriptionDataSet", config.subscriptionDataSet());
        }
        if (tooLarge != null) {
            return error(request, ResponseCode.INVALID_PARAMETER, tooLarge);
        }
        Optional<String> problem = groups.put(config);
        if (problem.isPresent()) {
            // Apache answers an attribute it does not know as a failure, anything else it takes as it comes
            int code = problem.get().startsWith("unsupported key") ? ResponseCode.SYSTEM_ERROR
                    : ResponseCode.INVALID_PARAMETER;
            return error(request, code, problem.get());
        }
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build();
    }

    /**
     * Why a setting kept as sent is too large to keep, or {@code null}: a group keeps it for as long as it is known,
     * and up to {@code maxSubscriptionGroups} groups are.
     */
    private String tooLarge(String field, JsonNode value) {
        if (value == null) {
            return null;
        }
        int bytes = json.encode(value).length;
        return bytes <= MAX_KEPT_JSON_BYTES ? null : field + " is " + bytes + " bytes of JSON; at most "
                + MAX_KEPT_JSON_BYTES + " are kept";
    }

    private RemotingCommand getGroup(RemotingCommand request) {
        String group = request.header(SubscriptionGroupRequestHeader.class).group();
        return groups.get(group).map(config -> ok(request, json.encode(config)))
                .orElseGet(() -> error(request, ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST,
                        "No group in this broker. group: " + NameRules.shown(group)));
    }

    private RemotingCommand deleteGroup(RemotingCommand request) {
        DeleteSubscriptionGroupRequestHeader h = request.header(DeleteSubscriptionGroupRequestHeader.class);
        EntryChecks.group("groupName", h.groupName());
        groups.remove(h.groupName());
        if (h.cleanOffset()) {
            offsets.removeGroup(h.groupName());
        }
        // what is counted and tracked in memory per group goes with it, committed offsets kept or not
        groupDeleted.accept(h.groupName());
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build();
    }

    private RemotingCommand consumeStats(RemotingCommand request) {
        GetConsumeStatsRequestHeader h = request.header(GetConsumeStatsRequestHeader.class);
        EntryChecks.group("consumerGroup", h.consumerGroup());
        Set<String> wanted = new LinkedHashSet<>();
        if (h.topicList() != null && !h.topicList().isBlank()) {
            for (String topic : h.topicList().split(";")) {
                if (!topic.isBlank()) {
                    wanted.add(topic.trim());
                }
            }
        } else if (h.topic() != null && !h.topic().isBlank()) {
            wanted.add(h.topic());
        } else {
            wanted.addAll(offsets.topicsOf(h.consumerGroup()));
        }
        if (wanted.size() > MAX_TOPICS) {
            throw new BadRequestException(ResponseCode.INVALID_PARAMETER, "at most " + MAX_TOPICS
                    + " topics per request, not " + wanted.size());
        }
        // as Apache: an online group's statistics cover what it subscribes to
        Set<String> subscribed = consumers.group(h.consumerGroup()).map(g -> Set.copyOf(g.subscriptions.keySet()))
                .orElse(Set.of());
        Map<MessageQueueBody, ConsumeStats.OffsetWrapper> table = new HashMap<>();
        double tps = 0;
        for (String topic : wanted) {
            if (!subscribed.isEmpty() && !subscribed.contains(topic)) {
                continue;
            }
            table.putAll(progress(h.consumerGroup(), topic, false));
            tps += gets.of(topic + "@" + h.consumerGroup()).map(data -> data.statsMinute().tps()).orElse(0.0);
        }
        return ok(request, json.encode(new ConsumeStats(table, tps)));
    }

    /** The group's progress on each queue of a topic this broker serves. */
    private Map<MessageQueueBody, ConsumeStats.OffsetWrapper> progress(String group, String topic,
                                                                       boolean writeQueues) {
        Optional<TopicConfig> config = topics.get(topic);
        if (config.isEmpty()) {
            return Map.of();
        }
        int queues = writeQueues ? config.get().writeQueueNums() : config.get().readQueueNums();
        Map<MessageQueueBody, ConsumeStats.OffsetWrapper> table = new HashMap<>();
        Map<Integer, Long> committed = offsets.offsetsOf(group, topic);
        for (int queueId = 0; queueId < queues; queueId++) {
            long brokerOffset = Math.max(0, store.nextOffset(topic, queueId));
            long consumerOffset = Math.max(0, committed.getOrDefault(queueId, -1L));
            long last = consumerOffset > 0 ? QueueTimes.storeTime(store, topic, queueId, consumerOffset - 1) : 0;
            long pulled = Math.max(consumerOffset, pullOffsets.pulledUpTo(group, topic, queueId).orElse(0));
            table.put(new MessageQueueBody(topic, brokerName, queueId),
                    new ConsumeStats.OffsetWrapper(brokerOffset, consumerOffset, pulled, last));
        }
        return table;
    }

    private RemotingCommand brokerConsumeStats(RemotingCommand request) {
        boolean orderOnly = request.header(BrokerConsumeStatsRequestHeader.class).isOrder();
        List<Map<String, List<ConsumeStats>>> all = new ArrayList<>();
        long totalDiff = 0;
        long totalInflight = 0;
        for (String group : new TreeSet<>(groups.names())) {
            Set<String> subscribed = consumers.group(group).map(g -> Set.copyOf(g.subscriptions.keySet()))
                    .orElse(Set.of());
            List<ConsumeStats> perTopic = new ArrayList<>();
            for (String topic : offsets.topicsOf(group)) {
                Optional<TopicConfig> config = topics.get(topic);
                if (config.isEmpty() || orderOnly && !config.get().order()
                        || !subscribed.isEmpty() && !subscribed.contains(topic)) {
                    continue;
                }
                ConsumeStats stats = new ConsumeStats(progress(group, topic, true),
                        gets.of(topic + "@" + group).map(data -> data.statsMinute().tps()).orElse(0.0));
                totalDiff += stats.lag();
                totalInflight += stats.offsetTable().values().stream()
                        .mapToLong(o -> o.pullOffset() - o.consumerOffset()).sum();
                perTopic.add(stats);
            }
            all.add(Map.of(group, perTopic));
        }
        return ok(request, json.encode(new ConsumeStatsList(all, brokerAddress.get(), totalDiff, totalInflight)));
    }

    private RemotingCommand cloneOffsets(RemotingCommand request) {
        CloneGroupOffsetRequestHeader h = request.header(CloneGroupOffsetRequestHeader.class);
        EntryChecks.group("srcGroup", h.srcGroup());
        EntryChecks.group("destGroup", h.destGroup());
        if (groups.findOrCreate(h.destGroup()).isEmpty()) {
            return error(request, ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, groups.refusal(h.destGroup()));
        }
        Set<String> cloned = h.topic() == null || h.topic().isBlank() ? offsets.topicsOf(h.srcGroup())
                : Set.of(h.topic());
        Set<String> subscribed = h.offline() ? Set.of() : consumers.group(h.srcGroup())
                .map(g -> Set.copyOf(g.subscriptions.keySet())).orElse(Set.of());
        for (String topic : cloned) {
            if (topics.get(topic).isEmpty() || !subscribed.isEmpty() && !subscribed.contains(topic)) {
                continue;
            }
            offsets.offsetsOf(h.srcGroup(), topic).forEach((queueId, offset) ->
                    offsets.commit(groups, topics, h.destGroup(), topic, queueId, offset));
        }
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build();
    }

    private RemotingCommand consumerConnections(RemotingCommand request) {
        String group = request.header(ConsumerGroupRequestHeader.class).consumerGroup();
        Optional<ConsumerGroups.Group> found = consumers.group(group);
        if (found.isEmpty()) {
            return error(request, ResponseCode.CONSUMER_NOT_ONLINE, "the consumer group[" + group + "] not online");
        }
        ConsumerGroups.Group g = found.get();
        Set<Connection> connections = new HashSet<>();
        for (ConsumerGroups.Member member : consumers.members(group)) {
            connections.add(new Connection(member.clientId(), address(member.channel().remoteAddress()),
                    member.language(), member.version()));
        }
        return ok(request, json.encode(new ConsumerConnection(connections, Map.copyOf(g.subscriptions),
                g.consumeType, g.messageModel, g.consumeFromWhere)));
    }

    private RemotingCommand producerConnections(RemotingCommand request) {
        String group = request.header(ProducerGroupRequestHeader.class).producerGroup();
        List<ProducerGroups.Member> members = producers.members(group);
        if (members.isEmpty()) {
            return error(request, ResponseCode.SYSTEM_ERROR, "the producer group[" + group + "] not exist");
        }
        Set<Connection> connections = new HashSet<>();
        for (ProducerGroups.Member member : members) {
            connections.add(new Connection(member.clientId(), address(member.channel().remoteAddress()),
                    member.language(), member.version()));
        }
        return ok(request, json.encode(new ProducerConnection(connections)));
    }

    /** {@code host:port}, as Apache shows a client's address. */
    static String address(SocketAddress address) {
        if (address instanceof InetSocketAddress inet) {
            return inet.getAddress() == null ? inet.getHostString() + ":" + inet.getPort()
                    : inet.getAddress().getHostAddress() + ":" + inet.getPort();
        }
        return String.valueOf(address);
    }

    private static RemotingCommand ok(RemotingCommand request, byte[] body) {
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).body(body).build();
    }

    private static RemotingCommand error(RemotingCommand request, int code, String remark) {
        return RemotingCommand.responseTo(request, code).remark(remark).build();
    }
}
