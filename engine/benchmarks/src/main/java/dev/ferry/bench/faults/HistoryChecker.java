package dev.ferry.bench.faults;

import dev.ferry.bench.faults.FaultFigures.GroupFigures;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Checks a run's whole history: every send's outcome against what each consumer group received, delayed and timer
 * messages against their time, an orderly group's order per order key, transactions against their decision, and how
 * long after each fault's healing sends and receipts resumed.
 */
final class HistoryChecker {
    private HistoryChecker() {
    }

    /** One message as its send ended. */
    private record Send(Op invoke, Op outcome) {
        String result() {
            return outcome == null ? "unknown" : outcome.type();
        }

        boolean committed() {
            return !"rollback".equals(invoke.attr("decision"));
        }
    }

    static FaultFigures check(List<Op> history) {
        List<Op> ops = new ArrayList<>(history);
        ops.sort(Comparator.comparingLong(Op::time));
        Map<String, Send> sends = new HashMap<>();
        Map<String, List<Op>> receipts = new HashMap<>(); // per group
        List<Op> faults = new ArrayList<>();
        Map<String, ConsumerGroup> declared = new TreeMap<>();
        ConsumerGroup.CLIENT_GROUPS.forEach(group -> declared.put(group.name(), group));
        long invoked = 0;
        long ok = 0;
        long failed = 0;
        for (Op op : ops) {
            switch (op.type()) {
                case "invoke" -> {
                    invoked++;
                    sends.put(op.key(), new Send(op, null));
                }
                case "ok", "fail", "unknown" -> {
                    Send send = sends.get(op.key());
                    if (send != null) {
                        sends.put(op.key(), new Send(send.invoke(), op));
                    }
                    ok += op.type().equals("ok") ? 1 : 0;
                    failed += op.type().equals("fail") ? 1 : 0;
                }
                case "recv" -> receipts.computeIfAbsent(op.attr("group"), g -> new ArrayList<>()).add(op);
                case "fault", "heal" -> faults.add(op);
                case "group" -> {
                    ConsumerGroup group = ConsumerGroup.declaredBy(op);
                    declared.put(group.name(), group);
                }
                default -> {
                    // start, stop, check: context only
                }
            }
        }
        Map<String, GroupFigures> groups = new TreeMap<>();
        declared.values().forEach(group -> groups.put(group.name(),
                group(group, sends, receipts.getOrDefault(group.name(), List.of()))));
        Map<String, Long> faultCounts = new TreeMap<>();
        faults.stream().filter(f -> f.type().equals("fault"))
                .forEach(f -> faultCounts.merge(f.attr("kind"), 1L, Long::sum));
        List<Long> sendRecovery = new ArrayList<>();
        List<Long> recvRecovery = new ArrayList<>();
        Map<String, List<Long>> sendByKind = new TreeMap<>();
        Map<String, List<Long>> recvByKind = new TreeMap<>();
        Map<String, List<Long>> byConsumer = new TreeMap<>();
        long unrecovered = 0;
        List<Op> oks = ops.stream().filter(o -> o.type().equals("ok")).toList();
        List<Op> recvs = ops.stream().filter(o -> o.type().equals("recv")).toList();
        for (Op heal : faults) {
            if (!heal.type().equals("heal")) {
                continue;
            }
            String broker = heal.attr("broker");
            String process = heal.attr("kind").equals("CONSUMER_KILL") ? heal.attr("target") : null;
            Long send = firstAfter(oks, heal.time(), o -> "-".equals(broker) || broker.equals(o.broker()));
            Long recv = firstAfter(recvs, heal.time(), o -> (process == null || process.equals(o.process()))
                    && ("-".equals(broker) || broker.equals(o.broker())));
            if (send == null || recv == null) {
                unrecovered++;
            }
            if (send != null) {
                sendRecovery.add(send);
                sendByKind.computeIfAbsent(heal.attr("kind"), k -> new ArrayList<>()).add(send);
            }
            if (recv != null) {
                recvRecovery.add(recv);
                recvByKind.computeIfAbsent(heal.attr("kind"), k -> new ArrayList<>()).add(recv);
                if (process != null) {
                    byConsumer.computeIfAbsent(process, k -> new ArrayList<>()).add(recv);
                }
            }
        }
        return new FaultFigures(faultCounts, invoked, ok, failed, invoked - ok - failed, groups, sendRecovery,
                recvRecovery, unrecovered, sendByKind, recvByKind, byConsumer);
    }

    private static Long firstAfter(List<Op> sorted, long time, java.util.function.Predicate<Op> matching) {
        int low = 0;
        int high = sorted.size();
        while (low < high) { // the first op at or after time
            int mid = (low + high) >>> 1;
            if (sorted.get(mid).time() < time) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        for (int i = low; i < sorted.size(); i++) {
            if (matching.test(sorted.get(i))) {
                return sorted.get(i).time() - time;
            }
        }
        return null;
    }

    private static GroupFigures group(ConsumerGroup group, Map<String, Send> sends, List<Op> receipts) {
        Set<String> topics = group.topics();
        Map<String, Op> first = new HashMap<>();
        long unexpected = 0;
        long failedDelivered = 0;
        long rolledBack = 0;
        long early = 0;
        long maxEarly = 0;
        long unknownDelivered = 0;
        Set<String> duplicateCounted = new HashSet<>();
        long duplicates = 0;
        for (Op recv : receipts) {
            Send send = sends.get(recv.key());
            if (send == null || !topics.contains(send.invoke().topic())) {
                unexpected++;
                continue;
            }
            if (first.putIfAbsent(recv.key(), recv) != null) {
                duplicates++;
                duplicateCounted.add(recv.key());
            } else {
                switch (send.result()) {
                    case "fail" -> failedDelivered++;
                    case "unknown" -> unknownDelivered++;
                    default -> {
                    }
                }
                if (!send.committed()) {
                    rolledBack++;
                }
            }
            String due = send.invoke().attr("due");
            if (due != null && recv.time() < Long.parseLong(due)) {
                early++;
                maxEarly = Math.max(maxEarly, Long.parseLong(due) - recv.time());
            }
        }
        long expected = 0;
        long lost = 0;
        List<String> lostKeys = new ArrayList<>();
        for (Send send : sends.values()) {
            if (!topics.contains(send.invoke().topic()) || !send.result().equals("ok") || !send.committed()) {
                continue;
            }
            expected++;
            if (!first.containsKey(send.invoke().key())) {
                lost++;
                if (lostKeys.size() < 10) {
                    lostKeys.add(send.invoke().key());
                }
            }
        }
        long outOfOrder = group.orderly() ? outOfOrder(sends, first) : 0;
        return new GroupFigures(expected, first.size(), lost, unexpected, failedDelivered, rolledBack, duplicates,
                early, maxEarly, outOfOrder, unknownDelivered, List.copyOf(lostKeys), group);
    }

    /**
     * Pairs of one producer's, one order key's consecutive acknowledged messages stored in one queue whose first
     * receipts came in the wrong order.
     */
    private static long outOfOrder(Map<String, Send> sends, Map<String, Op> first) {
        Map<String, TreeMap<Long, Send>> byKey = new HashMap<>();
        for (Send send : sends.values()) {
            String order = send.invoke().attr("order");
            if (order != null && send.result().equals("ok")) {
                byKey.computeIfAbsent(send.invoke().process() + "/" + order, k -> new TreeMap<>())
                        .put(Long.parseLong(send.invoke().attr("seq")), send);
            }
        }
        long violations = 0;
        for (TreeMap<Long, Send> sequence : byKey.values()) {
            Send previous = null;
            for (Send send : sequence.values()) {
                if (previous != null && sameQueue(previous.outcome(), send.outcome())) {
                    Op earlier = first.get(previous.invoke().key());
                    Op later = first.get(send.invoke().key());
                    if (earlier != null && later != null && later.time() < earlier.time()) {
                        violations++;
                    }
                }
                previous = send;
            }
        }
        return violations;
    }

    private static boolean sameQueue(Op a, Op b) {
        return a.broker().equals(b.broker()) && a.queue() == b.queue();
    }
}
