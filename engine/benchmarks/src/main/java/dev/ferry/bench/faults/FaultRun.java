package dev.ferry.bench.faults;

import dev.ferry.bench.faults.FaultPlan.Fault;
import dev.ferry.client.cluster.TestCluster;
import dev.ferry.format.ChildProcess;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * One run of the harness against one kind of brokers: starts the {@link FaultCluster}, the client processes (Apache's
 * and Ferry's producer, consumers of both), lets them run while the {@link Nemesis} plays the plan, heals everything,
 * lets the producers go on a while, stops their sending (they stay to answer the brokers' transaction checks), waits
 * for the consumers to receive what was acknowledged (or for the drain time to pass), stops everything and checks the
 * history.
 *
 * @param kind       whose brokers
 * @param dir        the run's files: node logs and stores, history files
 * @param classPath  the class path of every child JVM
 * @param plan       the faults
 * @param consumersPerKind consumer processes of each client kind
 * @param leadIn     sending and receiving before the first fault
 * @param settle     sending after the last fault's healing
 * @param drain      longest wait for the consumers once the producers stopped
 * @param ballast    what fills the disk for DISK_FULL faults, or null when the plan has none
 */
record FaultRun(FaultCluster.Kind kind, Path dir, String classPath, FaultPlan plan, int consumersPerKind,
                Duration leadIn, Duration settle, Duration drain, DiskBallast ballast) {

    private static final List<String> CLIENT_KINDS = List.of("apache", "ferry");

    /** The consumer process names of a run with {@code perKind} per client kind. */
    static List<String> consumerNames(int perKind) {
        List<String> names = new ArrayList<>();
        for (String kind : CLIENT_KINDS) {
            for (int i = 1; i <= perKind; i++) {
                names.add(kind + "-consumer-" + i);
            }
        }
        return names;
    }

    FaultFigures run(PrintStream out) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path histories = dir.resolve("history");
        Files.createDirectories(histories);
        Map<String, Integer> limits = ballast != null ? ballast.limits() : Map.of();
        out.printf("%s: starting the cluster in %s%n", kind, dir);
        try (FaultCluster cluster = FaultCluster.start(kind, dir, classPath, limits, new Random(plan.seed()));
             HistoryLog history = new HistoryLog(histories.resolve("harness.history"))) {
            createTopics(cluster);
            Map<String, ChildProcess> consumers = new LinkedHashMap<>();
            Map<String, ChildProcess> producers = new LinkedHashMap<>();
            try {
                for (String name : consumerNames(consumersPerKind)) {
                    consumers.put(name, client("consumer", name, cluster, histories));
                    consumers.get(name).start(90);
                }
                for (String kind : CLIENT_KINDS) {
                    String name = kind + "-producer";
                    producers.put(name, client("producer", name, cluster, histories));
                    producers.get(name).start(90);
                }
                out.printf("%s: clients ready; %d faults to come%n", kind, plan.faults().size());
                TimeUnit.MILLISECONDS.sleep(leadIn.toMillis()); // traffic before the first fault
                Nemesis nemesis = new Nemesis(cluster, consumers, ballast, history);
                long start = System.currentTimeMillis();
                for (Fault fault : plan.faults()) {
                    sleepUntil(start + fault.atMillis());
                    out.printf("%s: %s%n", kind, fault);
                    nemesis.start(fault);
                    try {
                        sleepUntil(start + fault.atMillis() + fault.durationMillis());
                    } finally {
                        nemesis.heal(fault);
                    }
                }
                TimeUnit.MILLISECONDS.sleep(settle.toMillis()); // sends after the last healing
                for (String producer : producers.keySet()) {
                    Files.createFile(FaultClient.stopFile(histories.resolve(producer + ".history")));
                }
                // the producers stay to answer the brokers' checks of their last transactions
                awaitDrained(histories, out);
            } finally {
                for (ChildProcess process : producers.values()) {
                    process.close();
                }
                for (ChildProcess process : consumers.values()) {
                    process.close();
                }
                if (ballast != null) {
                    ballast.free();
                }
            }
        }
        return HistoryChecker.check(HistoryLog.readAll(histories));
    }

    private ChildProcess client(String role, String name, FaultCluster cluster, Path histories) throws IOException {
        Path home = dir.resolve(name + "-home");
        Files.createDirectories(home);
        return new ChildProcess(name, ChildProcess.java("256m", classPath, FaultClient.class.getName(),
                List.of("-Duser.home=" + home, "-Drocketmq.client.logRoot=" + home),
                List.of(role, name.substring(0, name.indexOf('-')), cluster.clientNameServers(),
                        histories.resolve(name + ".history").toString(), name)),
                dir.resolve(name + ".log"), "fault client ready");
    }

    /** Every topic on both masters, four queues each; retried until both brokers are listed. */
    private static void createTopics(FaultCluster cluster) throws InterruptedException {
        String nameServer = cluster.clientNameServers().split(";")[0];
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        for (String topic : FaultClient.TOPICS) {
            while (true) {
                String created;
                try {
                    created = TestCluster.admin(nameServer, "topic", "create", topic, "--queues", "4");
                } catch (IllegalStateException e) {
                    created = "";
                }
                if (created.lines().filter(line -> line.startsWith("created topic")).count() >= 2) {
                    break;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("topic " + topic + " not created on both masters: " + created);
                }
                TimeUnit.SECONDS.sleep(1); // the brokers register every few seconds
            }
        }
    }

    /** Waits until every group received every acknowledged message it must, or the drain time passed. */
    private void awaitDrained(Path histories, PrintStream out) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + drain.toNanos();
        while (true) {
            FaultFigures figures = HistoryChecker.check(HistoryLog.readAll(histories));
            long missing = figures.groups().values().stream().mapToLong(FaultFigures.GroupFigures::lost).sum();
            if (missing == 0) {
                return;
            }
            if (System.nanoTime() > deadline) {
                out.printf("%s: %d acknowledged messages still not received after %ss%n", kind, missing,
                        drain.toSeconds());
                return;
            }
            TimeUnit.SECONDS.sleep(5); // polling the history files
        }
    }

    private static void sleepUntil(long epochMillis) throws InterruptedException {
        long wait = epochMillis - System.currentTimeMillis();
        if (wait > 0) {
            TimeUnit.MILLISECONDS.sleep(wait); // the plan's timing
        }
    }
}
