package dev.ferry.server.broker;

import dev.ferry.format.Clock;
import dev.ferry.format.SystemTopics;
import dev.ferry.remoting.protocol.body.TopicConfig;
import dev.ferry.server.timer.TimerDistribution;
import dev.ferry.server.timer.TimerStore;
import dev.ferry.store.MessageStore;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.function.LongToIntFunction;
import java.util.function.Supplier;

/**
 * What the broker counts and holds, read when asked (a metrics scrape, a management view): traffic per topic and
 * group, connections, each online group's progress on the topics it subscribes to, processor queues, the store's
 * backlog and the timers held. Nothing here is kept apart from the broker's own tables; each call computes from them.
 */
public final class BrokerFigures {
    /** Messages and stored bytes of one type producers put in a topic since start. */
    public record TopicTraffic(String topic, String messageType, long messages, long bytes) {
    }

    /** Messages and stored bytes a group's pulls took from a topic since start. */
    public record GroupTraffic(String topic, String group, long messages, long bytes) {
    }

    /** Messages of a topic a group's consumers failed so often that they went to its DLQ, since start. */
    public record DeadLetters(String topic, String group, long messages) {
    }

    /**
     * Live client connections of one kind.
     *
     * @param group       the consumer group, or {@code null} for producers (counted over all their groups)
     * @param consumeMode {@code push} or {@code pull}; {@code null} for producers
     */
    public record Connections(String group, String language, String version, String consumeMode, int count) {
    }

    /**
     * An online group's progress on a topic it subscribes to, summed over the topic's write queues (Apache's lag
     * family): messages not yet committed, pulled but not committed, stored but not pulled; and how long the oldest
     * uncommitted and oldest unpulled messages have waited.
     */
    public record Progress(String topic, String group, long lag, long inflight, long ready, long lagLatencyMillis,
                           long queueingLatencyMillis) {
    }

    private final BrokerConfig config;
    private final Clock clock;
    private final MessageStore store;
    private final TopicConfigTable topics;
    private final SubscriptionGroupTable groups;
    private final ConsumerOffsetTable offsets;
    private final PullOffsets pullOffsets;
    private final ConsumerGroups consumers;
    private final ProducerGroups producers;
    private final TopicCounters counters;
    private final ReplyPushes replies;
    private final Map<String, ThreadPoolExecutor> executors;
    private final Supplier<TimerStore.Figures> timers;
    private final TimerDistribution timerDistribution;

    BrokerFigures(BrokerConfig config, Clock clock, MessageStore store, TopicConfigTable topics,
                  SubscriptionGroupTable groups, ConsumerOffsetTable offsets, PullOffsets pullOffsets,
                  ConsumerGroups consumers, ProducerGroups producers, TopicCounters counters, ReplyPushes replies,
                  Map<String, ThreadPoolExecutor> executors, Supplier<TimerStore.Figures> timers,
                  LongToIntFunction timerSlotCount) {
        this.timers = timers;
        this.timerDistribution = new TimerDistribution(config.timers().precisionMs(), timerSlotCount, clock);
        this.replies = replies;
        this.config = config;
        this.clock = clock;
        this.store = store;
        this.topics = topics;
        this.groups = groups;
        this.offsets = offsets;
        this.pullOffsets = pullOffsets;
        this.consumers = consumers;
        this.producers = producers;
        this.counters = counters;
        this.executors = executors;
    }

    public String clusterName() {
        return config.clusterName();
    }

    public String brokerName() {
        return config.brokerName();
    }

    public int topicCount() {
        return topics.size();
    }

    public int consumerGroupCount() {
        return groups.size();
    }

    public List<TopicTraffic> messagesIn() {
        List<TopicTraffic> traffic = new ArrayList<>();
        counters.inByTopicAndType().forEach((key, totals) -> traffic.add(new TopicTraffic(key.topic(),
                key.type().label(), totals[0], totals[1])));
        return traffic;
    }

    public List<GroupTraffic> messagesOut() {
        Map<String, Long> bytes = counters.bytesOutByGroup();
        List<GroupTraffic> traffic = new ArrayList<>();
        counters.outByGroup().forEach((key, messages) -> {
            int at = key.lastIndexOf('@');
            traffic.add(new GroupTraffic(key.substring(0, at), key.substring(at + 1), messages,
                    bytes.getOrDefault(key, 0L)));
        });
        return traffic;
    }

    public List<DeadLetters> deadLettered() {
        List<DeadLetters> dead = new ArrayList<>();
        counters.deadLettered().forEach((key, messages) -> {
            int at = key.lastIndexOf('@');
            dead.add(new DeadLetters(key.substring(0, at), key.substring(at + 1), messages));
        });
        return dead;
    }

    /** Per topic, transactions committed since start. */
    public Map<String, Long> committedTransactions() {
        return counters.commits();
    }

    /** Per topic, transactions rolled back since start. */
    public Map<String, Long> rolledBackTransactions() {
        return counters.rollbacks();
    }

    /** Per topic, transactions prepared since start and not yet decided or discarded. */
    public Map<String, Long> halfMessages() {
        return counters.undecided();
    }

    /** Replies pushed to their requesters since start. */
    public long repliesPushed() {
        return replies.pushed();
    }

    /**
     * Replies dropped since start, by reason: {@code requester_gone} (no live connection of the requester here),
     * {@code push_failed} (its client did not take it in time), {@code busy} (pushes in flight at their bound).
     */
    public Map<String, Long> repliesDropped() {
        return replies.dropped();
    }

    /** Live consumer connections per group, language, version and consume mode. */
    public List<Connections> consumerConnections() {
        List<Connections> all = new ArrayList<>();
        for (String group : consumers.groupNames()) {
            String mode = consumers.group(group).map(g -> "CONSUME_ACTIVELY".equals(g.consumeType) ? "pull" : "push")
                    .orElse("push");
            Map<List<String>, Integer> counts = new HashMap<>();
            for (ConsumerGroups.Member member : consumers.members(group)) {
                counts.merge(List.of(member.language(), String.valueOf(member.version())), 1, Integer::sum);
            }
            counts.forEach((key, count) -> all.add(new Connections(group, key.get(0), key.get(1), mode, count)));
        }
        return all;
    }

    /** Live producer connections per language and version, over all producer groups. */
    public List<Connections> producerConnections() {
        Map<List<String>, Integer> counts = new HashMap<>();
        for (ProducerGroups.Member member : producers.allMembers()) {
            counts.merge(List.of(member.language(), String.valueOf(member.version())), 1, Integer::sum);
        }
        List<Connections> all = new ArrayList<>();
        counts.forEach((key, count) -> all.add(new Connections(null, key.get(0), key.get(1), null, count)));
        return all;
    }

    /** How long a computed progress is answered again: one scrape or one view reads it many times. */
    static final long PROGRESS_REUSE_MILLIS = 1000;
    /** The last progress computed and when; {@code null} before the first. */
    private List<Progress> lastProgress;
    private long lastProgressMillis;

    /**
     * Each online group's progress on the topics it subscribes to (retry topics and topics this broker does not
     * serve left out, as Apache leaves them). A queue the group never committed on counts no lag. Computed at most
     * once a second: the metrics' five lag gauges and a management view's attributes all read it.
     */
    public synchronized List<Progress> progress() {
        long now = clock.millis();
        if (lastProgress == null || now - lastProgressMillis >= PROGRESS_REUSE_MILLIS || now < lastProgressMillis) {
            lastProgress = List.copyOf(computeProgress(now));
            lastProgressMillis = now;
        }
        return lastProgress;
    }

    private List<Progress> computeProgress(long now) {
        List<Progress> all = new ArrayList<>();
        for (String group : consumers.groupNames()) {
            for (String topic : consumers.group(group).map(g -> List.copyOf(g.subscriptions.keySet()))
                    .orElse(List.of())) {
                if (SystemTopics.isRetryTopic(topic)) {
                    continue;
                }
                topics.get(topic).ifPresent(config -> all.add(progress(group, topic, config, now)));
            }
        }
        return all;
    }

    private Progress progress(String group, String topic, TopicConfig config, long now) {
        long lag = 0;
        long inflight = 0;
        long ready = 0;
        long oldestUncommitted = Long.MAX_VALUE;
        long oldestUnpulled = Long.MAX_VALUE;
        Map<Integer, Long> committed = offsets.offsetsOf(group, topic);
        for (int queueId = 0; queueId < config.writeQueueNums(); queueId++) {
            long max = Math.max(0, store.nextOffset(topic, queueId));
            long commit = committed.getOrDefault(queueId, -1L);
            long pulled = pullOffsets.pulledUpTo(group, topic, queueId).orElse(-1);
            long from = commit < 0 ? max : commit; // never committed: no lag, as Apache counts it
            lag += Math.max(0, max - from);
            long pulledFrom = Math.max(pulled, 0);
            inflight += Math.max(0, pulledFrom - (commit < 0 ? pulledFrom : commit));
            long unpulled = pulled < 0 ? max : pulled;
            ready += Math.max(0, max - unpulled);
            if (from < max) {
                oldestUncommitted = Math.min(oldestUncommitted, storeTime(topic, queueId, from));
            }
            if (unpulled < max) {
                oldestUnpulled = Math.min(oldestUnpulled, storeTime(topic, queueId, unpulled));
            }
        }
        return new Progress(topic, group, lag, inflight, ready, waited(now, oldestUncommitted),
                waited(now, oldestUnpulled));
    }

    private long storeTime(String topic, int queueId, long offset) {
        long time = QueueTimes.storeTime(store, topic, queueId, offset);
        return time > 0 ? time : Long.MAX_VALUE;
    }

    private static long waited(long now, long since) {
        return since == Long.MAX_VALUE ? 0 : Math.max(0, now - since);
    }

    /** Tasks waiting in each request executor, by Apache's processor names. */
    public Map<String, Integer> processorQueues() {
        Map<String, Integer> queues = new HashMap<>();
        executors.forEach((kind, executor) -> queues.put(switch (kind) {
            case "client" -> "client_manager";
            case "query" -> "query_message";
            default -> kind;
        }, executor.getQueue().size()));
        return queues;
    }

    /** Bytes used on the store's file system (Apache's rocketmq_storage_size), or -1 when it cannot be read. */
    public long storageBytes() {
        try {
            Path dir = config.storeDir();
            FileStore disk = Files.getFileStore(Files.exists(dir) ? dir : dir.toAbsolutePath().getRoot());
            return disk.getTotalSpace() - disk.getUnallocatedSpace();
        } catch (IOException | SecurityException e) {
            return -1;
        }
    }

    public long flushBehindBytes() {
        return Math.max(0, store.commitLogEndOffset() - store.commitLogFlushedOffset());
    }

    public long dispatchBehindBytes() {
        return Math.max(0, store.commitLogEndOffset() - store.dispatchedOffset());
    }

    /** How long the oldest stored message has been kept, or 0 when the store is empty. */
    public long reserveTimeMillis() {
        if (store.commitLogEndOffset() <= store.commitLogMinOffset()) {
            return 0;
        }
        return store.messageAt(store.commitLogMinOffset()).map(m -> Math.max(0, clock.millis() - m.storeTimestamp()))
                .orElse(0L);
    }

    /** Whether timer messages are held ({@code timerWheelEnable}); when not, there are no timer figures to read. */
    public boolean timersEnabled() {
        return config.timers().enabled();
    }

    /** The timer store's figures now. */
    public TimerStore.Figures timers() {
        return timers.get();
    }

    /** Timer entries waiting in the next 24 hours, by Apache's bounds in seconds ({@link TimerDistribution}). */
    public Map<Integer, Long> timerDistribution() {
        return timerDistribution.bySeconds();
    }
}
