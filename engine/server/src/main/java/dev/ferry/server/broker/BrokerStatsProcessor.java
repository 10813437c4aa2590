package dev.ferry.server.broker;

import dev.ferry.format.SystemTopics;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestContext;
import dev.ferry.remoting.RequestProcessor;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.body.BrokerStatsBody;
import dev.ferry.remoting.protocol.body.BrokerStatsBody.GroupStats;
import dev.ferry.remoting.protocol.body.BrokerStatsBody.QueueLag;
import dev.ferry.remoting.protocol.body.BrokerStatsBody.TopicStats;
import dev.ferry.remoting.protocol.body.TopicConfig;
import dev.ferry.server.timer.TimerStore;
import dev.ferry.store.MessageStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/** FERRY_GET_BROKER_STATS: the counters, offsets and lag an operator reads ({@code ferry-server admin}). */
final class BrokerStatsProcessor implements RequestProcessor {
    private final String brokerName;
    private final MessageStore store;
    private final TopicConfigTable topics;
    private final ConsumerGroups consumers;
    private final ConsumerOffsetTable offsets;
    private final TopicCounters counters;
    private final BodyCodec json;
    private final Supplier<BrokerStatsBody.Health> health;
    private final Supplier<TimerStore.Figures> timers;

    BrokerStatsProcessor(String brokerName, MessageStore store, TopicConfigTable topics, ConsumerGroups consumers,
                         ConsumerOffsetTable offsets, TopicCounters counters, BodyCodec json,
                         Supplier<BrokerStatsBody.Health> health, Supplier<TimerStore.Figures> timers) {
        this.health = health;
        this.timers = timers;
        this.brokerName = brokerName;
        this.store = store;
        this.topics = topics;
        this.consumers = consumers;
        this.offsets = offsets;
        this.counters = counters;
        this.json = json;
    }

    @Override
    public RemotingCommand process(RequestContext context, RemotingCommand request) {
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).body(json.encode(stats())).build();
    }

    BrokerStatsBody stats() {
        List<TopicStats> topicStats = new ArrayList<>();
        for (String topic : new TreeSet<>(topics.all().keySet())) {
            topicStats.add(new TopicStats(topic, counters.in(topic), counters.out(topic), storedMessages(topic)));
        }
        Set<String> groups = new TreeSet<>(consumers.groupNames());
        groups.addAll(offsets.groups());
        List<GroupStats> groupStats = new ArrayList<>();
        for (String group : groups) {
            groupStats.add(new GroupStats(group, consumers.clientIds(group).size(), lag(group),
                    storedMessages(SystemTopics.deadLetterTopic(group))));
        }
        TimerStore.Figures t = timers.get();
        return new BrokerStatsBody(brokerName, topicStats, groupStats, health.get(), new BrokerStatsBody.Timers(
                t.waiting(), t.enqueueLag(), t.dequeueLagMs(), t.enqueued(), t.fired(), t.cancelled(), t.lost()));
    }

    private long storedMessages(String topic) {
        long total = 0;
        for (int queueId = 0; queueId < queues(topic); queueId++) {
            total += store.nextOffset(topic, queueId) - store.minOffset(topic, queueId);
        }
        return total;
    }

    private int queues(String topic) {
        return topics.get(topic).map(TopicConfig::readQueueNums).orElse(0);
    }

    private List<QueueLag> lag(String group) {
        List<QueueLag> lag = new ArrayList<>();
        for (String topic : offsets.topicsOf(group)) {
            for (int queueId = 0; queueId < queues(topic); queueId++) {
                long max = store.nextOffset(topic, queueId);
                long committed = offsets.query(group, topic, queueId).orElse(store.minOffset(topic, queueId));
                lag.add(new QueueLag(topic, queueId, max, committed, Math.max(0, max - committed)));
            }
        }
        return lag;
    }
}
