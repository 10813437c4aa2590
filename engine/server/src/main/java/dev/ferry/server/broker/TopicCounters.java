package dev.ferry.server.broker;

import static dev.ferry.format.MessageProperties.has;

import dev.ferry.format.MessageProperties;
import dev.ferry.format.NameRules;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Messages in (stored for producers) and out (returned by pulls) per topic since the broker
 * started. Thread-safe and cheap on the hot paths: one adder per topic and direction.
 */
final class TopicCounters {
    private final Map<String, LongAdder> in = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> out = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> outByGroup = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> bytesOutByGroup = new ConcurrentHashMap<>();
    private final Map<TypedKey, TypedTraffic> typedIn = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> deadLetters = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> commits = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> rollbacks = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> discards = new ConcurrentHashMap<>();
    private final LongAdder allIn = new LongAdder();
    private final LongAdder allOut = new LongAdder();
    /** Told of each put (its topic, type, message count and bytes); nothing unless metrics are on. */
    private volatile PutObserver puts = (topic, type, count, bytes) -> { };

    /** Is told of each put as it is counted. */
    @FunctionalInterface
    interface PutObserver {
        void stored(String topic, MessageType type, int count, long bytes);
    }

    void messagesIn(String topic, int count) {
        messagesIn(topic, count, 0);
    }

    /** Messages producers stored in {@code topic}, and their stored bytes. */
    void messagesIn(String topic, int count, long bytes) {
        messagesIn(topic, MessageType.NORMAL, count, bytes);
    }

    /** Messages of one type producers stored in {@code topic}, and their stored bytes. */
    void messagesIn(String topic, MessageType type, int count, long bytes) {
        in.computeIfAbsent(topic, t -> new LongAdder()).add(count);
        TypedTraffic typed = typedIn.computeIfAbsent(new TypedKey(topic, type), k -> new TypedTraffic());
        typed.messages.add(count);
        typed.bytes.add(bytes);
        allIn.add(count);
        puts.stored(topic, type, count, bytes);
    }

    /** The kinds of message Apache's metrics tell apart. */
    enum MessageType {
        NORMAL, FIFO, DELAY, TRANSACTION;

        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        /** A message's kind, from its flags and properties as Apache tells it. */
        static MessageType of(int sysFlag, String properties) {
            if (TransactionService.isPrepared(sysFlag)) {
                return TRANSACTION;
            }
            if (properties == null || properties.isEmpty()) {
                return NORMAL;
            }
            if (has(properties, MessageProperties.DELAY) || has(properties, MessageProperties.TIMER_DELIVER_MS)
                    || has(properties, MessageProperties.TIMER_DELAY_SEC)
                    || has(properties, MessageProperties.TIMER_DELAY_MS)) {
                return DELAY;
            }
            return has(properties, MessageProperties.SHARDING_KEY) ? FIFO : NORMAL;
        }
    }

    /** A topic's messages of one type. */
    record TypedKey(String topic, MessageType type) {
    }

    private static final class TypedTraffic {
        final LongAdder messages = new LongAdder();
        final LongAdder bytes = new LongAdder();
    }

    /** Messages and bytes stored since start, per topic and type: {@code [messages, bytes]}. */
    Map<TypedKey, long[]> inByTopicAndType() {
        Map<TypedKey, long[]> totals = new java.util.HashMap<>();
        typedIn.forEach((key, traffic) -> totals.put(key, new long[] {traffic.messages.sum(), traffic.bytes.sum()}));
        return totals;
    }

    /** A producer decided a transaction of {@code topic}. */
    void transactionDecided(String topic, boolean committed) {
        incrementBounded(committed ? commits : rollbacks, topic);
    }

    /** Counts under {@code key} unless the map holds {@link #MAX_GROUP_KEYS} others: keys here come from clients. */
    private static void incrementBounded(Map<String, LongAdder> counts, String key) {
        if (key == null) {
            return;
        }
        LongAdder count = counts.get(key);
        if (count == null && counts.size() < MAX_GROUP_KEYS) {
            count = counts.computeIfAbsent(key, k -> new LongAdder());
        }
        if (count != null) {
            count.increment();
        }
    }

    /** A transaction of {@code topic} was discarded, undecided after all its checks. */
    void transactionDiscarded(String topic) {
        incrementBounded(discards, topic);
    }

    /**
     * Per topic, transactions neither committed, rolled back nor discarded among those prepared since start (Apache's
     * rocketmq_half_messages, which it also counts from its start).
     */
    Map<String, Long> undecided() {
        Map<String, Long> open = new java.util.HashMap<>();
        typedIn.forEach((key, traffic) -> {
            if (key.type() == MessageType.TRANSACTION) {
                open.put(key.topic(), traffic.messages.sum() - sum(commits, key.topic()) - sum(rollbacks, key.topic())
                        - sum(discards, key.topic()));
            }
        });
        return open;
    }

    private static long sum(Map<String, LongAdder> adders, String key) {
        LongAdder adder = adders.get(key);
        return adder == null ? 0 : adder.sum();
    }

    /** Per topic, transactions committed since start. */
    Map<String, Long> commits() {
        return totals(commits);
    }

    /** Per topic, transactions rolled back since start. */
    Map<String, Long> rollbacks() {
        return totals(rollbacks);
    }

    /**
     * A message of {@code topic} a group's consumers failed too often went to its dead-letter topic. Counted only when
     * both are valid names (the key is kept until the topic is deleted and shown as a metric label), so that a key is
     * at most a topic's and a group's longest names.
     */
    void deadLettered(String topic, String group) {
        if (NameRules.isValidTopic(topic) && NameRules.isValidGroup(group)) {
            incrementBounded(deadLetters, topic + "@" + group);
        }
    }

    /** Per {@code topic@group}, messages sent to the group's DLQ since start. */
    Map<String, Long> deadLettered() {
        return totals(deadLetters);
    }

    /** Where puts are told from now on. */
    void observePuts(PutObserver observer) {
        this.puts = observer;
    }

    /** Messages a pull of {@code group} returned from {@code topic}; the group is known to the broker. */
    void messagesOut(String topic, String group, int count) {
        messagesOut(topic, group, count, 0);
    }

    /**
     * Messages (and their bytes) a pull of {@code group} returned from {@code topic}. At most
     * {@link #MAX_GROUP_KEYS} topic-and-group pairs are counted apart, so that no client can grow the table by
     * pulling every topic under many groups; beyond, only the topic's and the broker's totals count.
     */
    void messagesOut(String topic, String group, int count, long bytes) {
        out.computeIfAbsent(topic, t -> new LongAdder()).add(count);
        String key = topic + "@" + group;
        LongAdder messages = outByGroup.get(key);
        if (messages == null && outByGroup.size() < MAX_GROUP_KEYS) {
            messages = outByGroup.computeIfAbsent(key, t -> new LongAdder());
        }
        if (messages != null) {
            messages.add(count);
            bytesOutByGroup.computeIfAbsent(key, t -> new LongAdder()).add(bytes);
        }
        allOut.add(count);
    }

    /** Topic-and-group pairs counted apart at most (pulls and dead letters each). */
    static final int MAX_GROUP_KEYS = 100_000;

    /** Messages stored for producers since start, over all topics. */
    long allIn() {
        return allIn.sum();
    }

    /** Messages pulls returned since start, over all topics. */
    long allOut() {
        return allOut.sum();
    }

    /** Per topic, messages stored since start. */
    Map<String, Long> inByTopic() {
        return totals(in);
    }

    /** Per {@code topic@group}, messages pulls returned since start (Apache's GROUP_GET_NUMS keys). */
    Map<String, Long> outByGroup() {
        return totals(outByGroup);
    }

    /** Per {@code topic@group}, bytes pulls returned since start. */
    Map<String, Long> bytesOutByGroup() {
        return totals(bytesOutByGroup);
    }

    private static Map<String, Long> totals(Map<String, LongAdder> adders) {
        Map<String, Long> totals = new java.util.HashMap<>();
        adders.forEach((key, adder) -> totals.put(key, adder.sum()));
        return totals;
    }

    /** Forgets a deleted topic's counts. */
    void forgetTopic(String topic) {
        in.remove(topic);
        out.remove(topic);
        typedIn.keySet().removeIf(key -> key.topic().equals(topic));
        deadLetters.keySet().removeIf(key -> key.startsWith(topic + "@"));
        commits.remove(topic);
        rollbacks.remove(topic);
        discards.remove(topic);
        outByGroup.keySet().removeIf(key -> key.startsWith(topic + "@"));
        bytesOutByGroup.keySet().removeIf(key -> key.startsWith(topic + "@"));
    }

    /** Forgets a deleted group's counts (pulls and dead letters under any topic). */
    void forgetGroup(String group) {
        String suffix = "@" + group;
        outByGroup.keySet().removeIf(key -> key.endsWith(suffix));
        bytesOutByGroup.keySet().removeIf(key -> key.endsWith(suffix));
        deadLetters.keySet().removeIf(key -> key.endsWith(suffix));
    }

    long in(String topic) {
        LongAdder adder = in.get(topic);
        return adder == null ? 0 : adder.sum();
    }

    long out(String topic) {
        LongAdder adder = out.get(topic);
        return adder == null ? 0 : adder.sum();
    }
}
