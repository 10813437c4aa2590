package dev.ferry.server.broker;

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
    private final LongAdder allIn = new LongAdder();
    private final LongAdder allOut = new LongAdder();

    void messagesIn(String topic, int count) {
        in.computeIfAbsent(topic, t -> new LongAdder()).add(count);
        allIn.add(count);
    }

    /** Messages a pull of {@code group} returned from {@code topic}; the group is known to the broker. */
    void messagesOut(String topic, String group, int count) {
        out.computeIfAbsent(topic, t -> new LongAdder()).add(count);
        outByGroup.computeIfAbsent(topic + "@" + group, t -> new LongAdder()).add(count);
        allOut.add(count);
    }

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

    private static Map<String, Long> totals(Map<String, LongAdder> adders) {
        Map<String, Long> totals = new java.util.HashMap<>();
        adders.forEach((key, adder) -> totals.put(key, adder.sum()));
        return totals;
    }

    /** Forgets a deleted topic's counts. */
    void forgetTopic(String topic) {
        in.remove(topic);
        out.remove(topic);
        outByGroup.keySet().removeIf(key -> key.startsWith(topic + "@"));
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
