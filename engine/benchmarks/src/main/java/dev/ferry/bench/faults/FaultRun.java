package dev.ferry.bench.faults;

import dev.ferry.bench.faults.FaultPlan.Fault;
import dev.ferry.client.cluster.TestCluster;
import dev.ferry.format.AtomicFile;
import dev.ferry.format.ChildProcess;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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
 * and Ferry's producer, consumers of both) and any {@link ExternalConsumer}s, lets them run while the {@link Nemesis}
 * plays the plan, heals everything, lets the producers go on a while, stops their sending (they stay to answer the
 * brokers' transaction checks), waits for the consumers to receive what was acknowledged (or for the drain time to
 * pass), stops everything and checks the history.
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
 * @param inSyncReplicas the SYNC_MASTER's inSyncReplicas
 * @param externals  consumers beside the client processes, started and stopped by this run
 */
record FaultRun(FaultCluster.Kind kind, Path dir, String classPath, FaultPlan plan, int consumersPerKind,
                Duration leadIn, Duration settle, Duration drain, DiskBallast ballast, int inSyncReplicas,
                List<ExternalConsumer> externals) {

    FaultRun {
        externals = List.copyOf(externals);
    }

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
        List<Exception> stopFailures = new ArrayList<>();
        out.printf("%s: starting the cluster in %s%n", kind, dir);
        try (FaultCluster cluster = FaultCluster.start(kind, dir, classPath, limits, inSyncReplicas,
                new Random(plan.seed()));
             HistoryLog history = new HistoryLog(histories.resolve("harness.history"))) {
            createTopics(cluster);
            Map<String, ChildProcess> consumers = new LinkedHashMap<>();
            Map<String, ChildProcess> producers = new LinkedHashMap<>();
            Map<String, Nemesis.Victim> victims = new LinkedHashMap<>();
            List<ExternalConsumer> started = new ArrayList<>();
            try {
                for (String name : consumerNames(consumersPerKind)) {
                    consumers.put(name, client("consumer", name, cluster, histories));
                    consumers.get(name).start(90);
                    victims.put(name, Nemesis.Victim.of(consumers.get(name)));
                }
                for (ExternalConsumer external : externals) {
                    history.write(external.group().declaration(System.currentTimeMillis()));
                    started.add(external);
                    Step start = () -> external.start(cluster.clientNameServers());
                    start.perform(external.name() + " did not start");
                    victims.put(external.name(), Nemesis.Victim.of(external));
                }
                for (String kind : CLIENT_KINDS) {
                    String name = kind + "-producer";
                    producers.put(name, client("producer", name, cluster, histories));
                    producers.get(name).start(90);
                }
                out.printf("%s: clients ready; %d faults to come%n", kind, plan.faults().size());
                TimeUnit.MILLISECONDS.sleep(leadIn.toMillis()); // traffic before the first fault
                Nemesis nemesis = new Nemesis(cluster, victims, ballast, history);
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
                for (ExternalConsumer external : externals) {
                    recordFinalReceipts(external, histories);
                }
            } finally {
                // each stops whatever another's stopping threw: a process left running outlives the run
                List<Step> stops = new ArrayList<>();
                started.forEach(external -> stops.add(external::close));
                producers.values().forEach(process -> stops.add(process::close));
                consumers.values().forEach(process -> stops.add(process::close));
                if (ballast != null) {
                    stops.add(ballast::free);
                }
                for (Step stop : stops) {
                    try {
                        stop.run();
                    } catch (Exception e) {
                        stopFailures.add(e);
                        out.printf("%s: a stop at the run's end failed: %s%n", kind, e);
                    }
                }
            }
        }
        if (!stopFailures.isEmpty()) {
            IOException failure = new IOException(stopFailures.size()
                    + " of the run's stops (its clients', the disks' freeing) failed");
            stopFailures.forEach(failure::addSuppressed);
            throw failure;
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

    /**
     * Replaces {@code external}'s history file with what it recorded so far; when it cannot tell (it is being
     * restarted, say), throws what it threw and leaves the file as it was.
     */
    private static void recordReceipts(ExternalConsumer external, Path histories) throws Exception {
        StringBuilder lines = new StringBuilder();
        for (Receipt receipt : external.receipts()) {
            lines.append(new Op(receipt.time(), external.name(), "recv", receipt.key(), receipt.topic(),
                    receipt.broker(), receipt.queue(), receipt.offset(), Map.of("group", external.group().name()))
                    .line()).append('\n');
        }
        new AtomicFile(histories.resolve(external.name() + ".history"))
                .write(lines.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** Records what {@code external} processed once the run is over; it has a minute to answer. */
    private static void recordFinalReceipts(ExternalConsumer external, Path histories) throws IOException,
            InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (true) {
            try {
                recordReceipts(external, histories);
                return;
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                if (System.nanoTime() > deadline) {
                    throw new IOException(external.name() + " did not answer for its receipts at the run's end", e);
                }
            }
            TimeUnit.SECONDS.sleep(2); // a server still starting, or busy
        }
    }

    /** Waits until every group received every acknowledged message it must, or the drain time passed. */
    private void awaitDrained(Path histories, PrintStream out) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + drain.toNanos();
        while (true) {
            for (ExternalConsumer external : externals) {
                try {
                    recordReceipts(external, histories);
                } catch (InterruptedException e) {
                    throw e;
                } catch (Exception e) {
                    // being restarted: its file keeps what it held, and the next poll asks again
                }
            }
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
