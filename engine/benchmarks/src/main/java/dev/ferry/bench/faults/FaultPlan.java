package dev.ferry.bench.faults;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The faults of a run, drawn from a seed before it starts: the same seed gives the same faults at the same times
 * against the same targets, whoever's brokers run. Faults come one at a time (each healed before the next), the kinds
 * in a shuffled cycle so that a short run meets every kind, each lasting and followed by a quiet spell of a drawn
 * length.
 */
record FaultPlan(long seed, List<Fault> faults) {

    /** What a fault does; {@link Fault#target()} names the node, link or consumer process it hits. */
    enum Kind {
        /** SIGKILL a node; started again at healing. */
        KILL,
        /** SIGSTOP a node (a long GC pause); SIGCONT at healing. */
        PAUSE,
        /** Reset every connection of a link and refuse new ones. */
        CUT,
        /** Stop a link's bytes both ways, connections kept. */
        PARTITION,
        /** Stop a link's bytes one way ({@link Fault#detail()}: TO_SERVER or TO_CLIENT). */
        ONE_WAY,
        /** Hold every chunk of a link ({@link Fault#detail()}: TO_SERVER, TO_CLIENT or BOTH, and the milliseconds). */
        DELAY,
        /** SIGKILL a consumer process; started again at healing. */
        CONSUMER_KILL,
        /**
         * Fill the disk above a broker's diskSpaceWarningLevelRatio ({@code a-master}) or every broker's
         * ({@code all}).
         */
        DISK_FULL
    }

    /**
     * One fault.
     *
     * @param atMillis       when it starts, from the start of the faults
     * @param durationMillis how long until it is healed
     * @param detail         a one-way fault's direction, a delay's direction and milliseconds ({@code BOTH:400}),
     *                       else empty
     */
    record Fault(long atMillis, long durationMillis, Kind kind, String target, String detail) {
        /** The broker group a fault hits, for its recovery time ({@code -} when it hits none alone). */
        String brokerGroup() {
            if (target.startsWith("a-")) {
                return "broker-a";
            }
            return target.startsWith("b-") ? "broker-b" : "-";
        }

        @Override
        public String toString() {
            return String.format(java.util.Locale.ROOT, "%6.1fs %-13s %-16s %-14s for %.1fs", atMillis / 1000.0, kind,
                    target, detail, durationMillis / 1000.0);
        }
    }

    /** Node targets of KILL and PAUSE. */
    static final List<String> NODES = FaultCluster.NODES;
    /** Link targets: clients to a broker, the master's HA link, brokers or clients to a name server. */
    static final List<String> LINKS = List.of("a-master", "a-slave", "b-master", "a-ha", "brokers-ns-0",
            "brokers-ns-1", "brokers-ns", "clients-ns-0");

    /**
     * Draws the faults of {@code faultMillis} of faults: each lasting {@code minFault..maxFault} ms and followed by
     * {@code minGap..maxGap} ms without one; {@code consumers} are the consumer processes a CONSUMER_KILL may hit;
     * without {@code disk}, no DISK_FULL.
     */
    static FaultPlan draw(long seed, long faultMillis, long minFault, long maxFault, long minGap, long maxGap,
                          List<String> consumers, boolean disk) {
        Random random = new Random(seed);
        List<Kind> kinds = new ArrayList<>(List.of(Kind.values()));
        if (!disk) {
            kinds.remove(Kind.DISK_FULL);
        }
        List<Fault> faults = new ArrayList<>();
        List<Kind> cycle = new ArrayList<>();
        long at = 0;
        while (true) {
            long duration = between(random, minFault, maxFault);
            if (at + duration > faultMillis) {
                break;
            }
            if (cycle.isEmpty()) {
                cycle.addAll(kinds);
                Collections.shuffle(cycle, random);
            }
            Kind kind = cycle.remove(0);
            String target = switch (kind) {
                case KILL, PAUSE -> pick(random, NODES);
                case CUT, PARTITION, ONE_WAY, DELAY -> pick(random, LINKS);
                case CONSUMER_KILL -> pick(random, consumers);
                case DISK_FULL -> random.nextBoolean() ? "a-master" : "all";
            };
            String detail = switch (kind) {
                case ONE_WAY -> pick(random, List.of("TO_SERVER", "TO_CLIENT"));
                case DELAY -> pick(random, List.of("TO_SERVER", "TO_CLIENT", "BOTH")) + ":"
                        + between(random, 100, 1500);
                default -> "";
            };
            faults.add(new Fault(at, duration, kind, target, detail));
            at += duration + between(random, minGap, maxGap);
        }
        return new FaultPlan(seed, List.copyOf(faults));
    }

    private static long between(Random random, long min, long max) {
        return min + (max > min ? (long) (random.nextDouble() * (max - min)) : 0);
    }

    private static String pick(Random random, List<String> from) {
        return from.get(random.nextInt(from.size()));
    }
}
