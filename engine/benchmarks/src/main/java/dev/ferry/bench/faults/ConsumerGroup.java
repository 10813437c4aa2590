package dev.ferry.bench.faults;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A consumer group of a fault run and what it promises: it receives every acknowledged message of its topics (a
 * transactional one only if committed); an orderly group in order per order key within a queue; an exactly-once group
 * each message once.
 *
 * @param name        the group
 * @param topics      what it subscribes to
 * @param orderly     whether it consumes orderly
 * @param exactlyOnce whether a duplicate breaks its promise
 */
public record ConsumerGroup(String name, Set<String> topics, boolean orderly, boolean exactlyOnce) {
    /** The groups of the harness's own consumer processes: Apache's and Ferry's clients, concurrent and orderly. */
    static final List<ConsumerGroup> CLIENT_GROUPS = List.of(
            new ConsumerGroup("apache-plain", Set.of(FaultClient.PLAIN, FaultClient.TIMED, FaultClient.TX), false,
                    false),
            new ConsumerGroup("apache-order", Set.of(FaultClient.ORDER), true, false),
            new ConsumerGroup("ferry-plain", Set.of(FaultClient.PLAIN, FaultClient.TIMED, FaultClient.TX), false,
                    false),
            new ConsumerGroup("ferry-order", Set.of(FaultClient.ORDER), true, false));

    public ConsumerGroup {
        if (name.isBlank() || name.contains("\t") || name.contains(";") || name.contains("=")) {
            throw new IllegalArgumentException("a group name without tabs, ';' or '=': " + name);
        }
        topics = Set.copyOf(topics);
    }

    /** The orderly group reading the harness's ordered topic, each message once: an exactly-once consumer's. */
    public static ConsumerGroup exactlyOnceOfOrdered(String name) {
        return new ConsumerGroup(name, Set.of(FaultClient.ORDER), true, true);
    }

    /** The history line that declares it, so that a later check of the history knows it. */
    Op declaration(long time) {
        return Op.of(time, "harness", "group", "-", "-", Map.of("name", name, "topics",
                String.join(",", new TreeSet<>(topics)), "orderly", Boolean.toString(orderly), "exactlyOnce",
                Boolean.toString(exactlyOnce)));
    }

    /** The group a {@code group} line declares. */
    static ConsumerGroup declaredBy(Op op) {
        return new ConsumerGroup(op.attr("name"), Set.of(op.attr("topics").split(",")),
                Boolean.parseBoolean(op.attr("orderly")), Boolean.parseBoolean(op.attr("exactlyOnce")));
    }
}
