package dev.ferry.bench.faults;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One line of a run's history: a send's {@code invoke} and its outcome ({@code ok}, {@code fail} when the broker
 * refused it or it never left the client, {@code unknown} when its answer was lost or it was stored but not
 * confirmed), a consumer's {@code recv}, a process's {@code start}, a fault's {@code fault} and {@code heal}.
 *
 * @param time    when, epoch milliseconds of this machine's clock (every process shares it)
 * @param process who wrote the line (a client process, or {@code harness})
 * @param type    what happened
 * @param key     the message's key, unique in the run ({@code -} when none)
 * @param topic   the message's topic ({@code -} when none)
 * @param broker  the broker group that stored or delivered it ({@code -} when unknown)
 * @param queue   its queue id (-1 when unknown)
 * @param offset  its queue offset (-1 when unknown)
 * @param attrs   more: the consumer group, the order key and sequence, when a timed message is due, a transaction's
 *                decision, a fault's kind and target
 */
record Op(long time, String process, String type, String key, String topic, String broker, int queue, long offset,
          Map<String, String> attrs) {

    Op {
        attrs = Map.copyOf(attrs);
    }

    static Op of(long time, String process, String type, String key, String topic, Map<String, String> attrs) {
        return new Op(time, process, type, key, topic, "-", -1, -1, attrs);
    }

    String attr(String name) {
        return attrs.get(name);
    }

    /** The line written: tab-separated fields, attributes as {@code name=value} joined by {@code ;}. */
    String line() {
        String attributes = attrs.isEmpty() ? "-" : attrs.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(";"));
        return time + "\t" + process + "\t" + type + "\t" + key + "\t" + topic + "\t" + broker + "\t" + queue + "\t"
                + offset + "\t" + attributes;
    }

    /** The op of a line; a torn last line (its writer was killed mid-write) gives null. */
    static Op parse(String line) {
        String[] f = line.split("\t", -1);
        if (f.length != 9) {
            return null;
        }
        try {
            Map<String, String> attrs = new LinkedHashMap<>();
            if (!f[8].equals("-")) {
                for (String pair : f[8].split(";")) {
                    int eq = pair.indexOf('=');
                    attrs.put(pair.substring(0, eq), pair.substring(eq + 1));
                }
            }
            return new Op(Long.parseLong(f[0]), f[1], f[2], f[3], f[4], f[5], Integer.parseInt(f[6]),
                    Long.parseLong(f[7]), attrs);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
