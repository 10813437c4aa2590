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

    void messagesIn(String topic, int count) {
        in.computeIfAbsent(topic, t -> new LongAdder()).add(count);
    }

    void messagesOut(String topic, int count) {
        out.computeIfAbsent(topic, t -> new LongAdder()).add(count);
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
