package dev.ferry.bench.server;

import dev.ferry.client.cluster.ApacheNodeMain;
import dev.ferry.client.cluster.TestCluster;
import dev.ferry.server.cli.FerryServerCommand;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Ferry's and Apache RocketMQ 5.3.3's clusters side by side on this machine, every node a JVM of its own, under the
 * same load (synchronous sends of 1 KiB from 16 threads of Apache's client): a name server and three brokers, the
 * topic on all three; then a broker group of a master and a slave, the master an ASYNC_MASTER and then a
 * SYNC_MASTER, for what waiting for the slave costs. Prints throughput and p99 per cluster and the ratios, all from
 * one run.
 *
 * <pre>java -cp engine/benchmarks/target/benchmarks.jar dev.ferry.bench.server.ClusterBench</pre>
 */
@Command(name = "cluster-bench", mixinStandardHelpOptions = true,
        description = "Three-broker clusters and master/slave pairs of Ferry and Apache RocketMQ, side by side.")
public final class ClusterBench implements Callable<Integer> {
    private static final String TOPIC = "ClusterBench";
    /** The line each node prints once it serves. */
    private static final Pattern READY = Pattern.compile("(Ferry (broker|name server)|Apache \\w+) ready");

    @Option(names = "--work-dir", description = "Scratch directory (deleted first).")
    Path workDir = Path.of(System.getProperty("java.io.tmpdir"), "ferry-cluster-bench");

    @Option(names = "--heap", description = "-Xmx of each node JVM.")
    String heap = "384m";

    @Option(names = "--segment-mib", description = "Commit-log file size of every broker, MiB.")
    int segmentMib = 64;

    @Option(names = "--threads", description = "Sending threads.")
    int threads = 16;

    @Option(names = "--duration-s", description = "Seconds of each measurement.")
    int durationSeconds = 15;

    @Option(names = "--warmup-s", description = "Seconds of the same sends, unmeasured, before each measurement.")
    int warmupSeconds = 8;

    private final Set<Integer> taken = new HashSet<>();

    public static void main(String[] args) {
        System.exit(new CommandLine(new ClusterBench()).execute(args));
    }

    /** Throughput (msg/s) and p99 (ms) of one measurement. */
    private record Figures(double perSecond, double p99Millis, double p999Millis) {
    }

    @Override
    public Integer call() throws Exception {
        SideBySide.deleteRecursively(workDir);
        Files.createDirectories(workDir);
        Map<String, Figures> results = new LinkedHashMap<>();
        for (String kind : List.of("ferry", "apache")) {
            results.put(kind + ":three", threeBrokers(kind));
        }
        for (String kind : List.of("apache", "ferry")) {
            for (String role : List.of("async", "sync")) {
                results.put(kind + ":" + role, pair(kind, role));
            }
        }
        print(results);
        return 0;
    }

    private void print(Map<String, Figures> r) {
        System.out.printf(Locale.ROOT, "%n| %-44s | %12s | %12s | %8s |%n", "sync send 1 KiB, " + threads + " threads",
                "Ferry", "Apache", "F / A");
        System.out.println("|" + "-".repeat(46) + "|" + "-".repeat(14) + "|" + "-".repeat(14) + "|" + "-".repeat(10)
                + "|");
        row("3 brokers: msg/s", r.get("ferry:three").perSecond(), r.get("apache:three").perSecond(), "%,12.0f");
        row("3 brokers: p99 ms", r.get("ferry:three").p99Millis(), r.get("apache:three").p99Millis(), "%12.2f");
        row("3 brokers: p99.9 ms", r.get("ferry:three").p999Millis(), r.get("apache:three").p999Millis(), "%12.2f");
        for (String role : List.of("async", "sync")) {
            String name = role.equals("sync") ? "SYNC_MASTER" : "ASYNC_MASTER";
            row("master + slave, " + name + ": msg/s", r.get("ferry:" + role).perSecond(),
                    r.get("apache:" + role).perSecond(), "%,12.0f");
            row("master + slave, " + name + ": p99 ms", r.get("ferry:" + role).p99Millis(),
                    r.get("apache:" + role).p99Millis(), "%12.2f");
        }
        row("SYNC_MASTER / ASYNC_MASTER msg/s", r.get("ferry:sync").perSecond() / r.get("ferry:async").perSecond(),
                r.get("apache:sync").perSecond() / r.get("apache:async").perSecond(), "%12.3f");
        row("SYNC_MASTER / ASYNC_MASTER p99", r.get("ferry:sync").p99Millis() / r.get("ferry:async").p99Millis(),
                r.get("apache:sync").p99Millis() / r.get("apache:async").p99Millis(), "%12.3f");
    }

    private static void row(String name, double ferry, double apache, String format) {
        System.out.printf(Locale.ROOT, "| %-44s | " + format + " | " + format + " | %8.3f |%n", name, ferry, apache,
                ferry / apache);
    }

    /** A name server and three brokers of {@code kind}, the topic on each, measured. */
    private Figures threeBrokers(String kind) throws Exception {
        Path dir = workDir.resolve(kind + "-three");
        List<ServerProcess> nodes = new ArrayList<>();
        try {
            int namesrvPort = freePort();
            String ns = "127.0.0.1:" + namesrvPort;
            nodes.add(nameServer(kind, dir, namesrvPort));
            for (String broker : List.of("broker-a", "broker-b", "broker-c")) {
                nodes.add(broker(kind, dir, broker, broker, ns, "master"));
            }
            return measure(kind + " three brokers", ns, 3 * 8, createTopic(ns));
        } finally {
            closeAll(nodes);
        }
    }

    /** A name server, a master ({@code role} async or sync) and its slave, of {@code kind}, measured. */
    private Figures pair(String kind, String role) throws Exception {
        Path dir = workDir.resolve(kind + "-" + role);
        List<ServerProcess> nodes = new ArrayList<>();
        try {
            int namesrvPort = freePort();
            String ns = "127.0.0.1:" + namesrvPort;
            nodes.add(nameServer(kind, dir, namesrvPort));
            nodes.add(broker(kind, dir, "master", "broker-r", ns, role.equals("sync") ? "sync-master" : "master"));
            nodes.add(broker(kind, dir, "slave", "broker-r", ns, "slave"));
            return measure(kind + " " + role + " master + slave", ns, 8, createTopic(ns));
        } finally {
            closeAll(nodes);
        }
    }

    private ServerProcess nameServer(String kind, Path dir, int port) throws Exception {
        List<String> command = jvm();
        if (kind.equals("ferry")) {
            command.addAll(List.of(FerryServerCommand.class.getName(), "namesrv", "--port", Integer.toString(port),
                    "--store-dir", dir.resolve("ns").toString()));
        } else {
            command.addAll(List.of(ApacheNodeMain.class.getName(), "namesrv", dir.resolve("ns").toString(),
                    Integer.toString(port)));
        }
        ServerProcess node = ServerProcess.start(kind + "-ns", null, command, dir);
        awaitReady(node);
        return node;
    }

    /** A broker; {@code role}: master (ASYNC_MASTER, serving slaves), sync-master or slave. */
    private ServerProcess broker(String kind, Path dir, String node, String brokerName, String ns, String role)
            throws Exception {
        int port = freeBrokerPort();
        int segment = segmentMib * 1024 * 1024;
        List<String> command = jvm();
        if (kind.equals("ferry")) {
            Path config = dir.resolve(node + ".properties");
            Files.createDirectories(dir);
            List<String> lines = new ArrayList<>(List.of("brokerName=" + brokerName, "namesrvAddr=" + ns,
                    "listenPort=" + port, "commitLogSegmentSize=" + segment));
            switch (role) {
                case "slave" -> lines.addAll(List.of("brokerRole=SLAVE", "brokerId=1"));
                case "sync-master" -> lines.add("brokerRole=SYNC_MASTER");
                default -> lines.add("haListenPort=" + (port + 1));
            }
            Files.write(config, lines);
            command.addAll(List.of(FerryServerCommand.class.getName(), "broker", "--config", config.toString(),
                    "--store-dir", dir.resolve(node).toString()));
        } else {
            command.addAll(List.of(ApacheNodeMain.class.getName(), "broker", dir.resolve(node).toString(), ns,
                    brokerName, "DefaultCluster", Integer.toString(port), role, Integer.toString(segment)));
        }
        ServerProcess started = ServerProcess.start(kind + "-" + node, ns, command, dir);
        awaitReady(started);
        return started;
    }

    private List<String> jvm() {
        String java = ProcessHandle.current().info().command().orElse("java");
        return new ArrayList<>(List.of(java, "-Xms" + heap, "-Xmx" + heap, "-XX:+UseG1GC",
                "-Duser.home=" + workDir, "-Drocketmq.home.dir=" + workDir, "-cp",
                System.getProperty("java.class.path")));
    }

    private static void awaitReady(ServerProcess node) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (System.nanoTime() < deadline) {
            if (Files.exists(node.log) && READY.matcher(Files.readString(node.log, StandardCharsets.ISO_8859_1))
                    .find()) {
                return;
            }
            if (!node.isAlive()) {
                throw new IllegalStateException(node.name + " exited; see " + node.log);
            }
            Thread.sleep(100); // polling a log file while a JVM starts
        }
        throw new IllegalStateException(node.name + " is not ready after 2 minutes; see " + node.log);
    }

    /** Creates the topic, waits until the producer sees {@code queues} queues, then warms up and measures. */
    private Figures measure(String what, String ns, int queues, Runnable createTopic) throws Exception {
        DefaultMQProducer producer = new DefaultMQProducer("cluster-bench");
        producer.setNamesrvAddr(ns);
        producer.setInstanceName("cluster-bench-" + System.nanoTime());
        producer.setSendMsgTimeout(10_000);
        producer.start();
        try {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            List<MessageQueue> seen = List.of();
            while (System.nanoTime() < deadline) {
                try {
                    createTopic.run();
                    seen = producer.fetchPublishMessageQueues(TOPIC);
                    if (seen.size() == queues) {
                        break;
                    }
                } catch (Exception | AssertionError e) {
                    // brokers still registering
                }
                Thread.sleep(500); // waiting for registrations
            }
            if (seen.size() != queues) {
                throw new IllegalStateException(what + ": the topic has " + seen.size() + " queues, not " + queues);
            }
            byte[] body = ClientLoad.body(1024);
            run(producer, body, Duration.ofSeconds(warmupSeconds), new Recorder(3));
            Recorder recorder = new Recorder(3);
            double rate = run(producer, body, Duration.ofSeconds(durationSeconds), recorder);
            Histogram histogram = recorder.getIntervalHistogram();
            Figures figures = new Figures(rate, histogram.getValueAtPercentile(99) / 1000.0,
                    histogram.getValueAtPercentile(99.9) / 1000.0);
            System.out.printf(Locale.ROOT, "%s: %,.0f msg/s, p99 %.2f ms, p99.9 %.2f ms%n", what, figures.perSecond(),
                    figures.p99Millis(), figures.p999Millis());
            return figures;
        } finally {
            producer.shutdown();
        }
    }

    /** Messages per second stored (SEND_OK) by the threads; every stored send's latency in microseconds. */
    private double run(DefaultMQProducer producer, byte[] body, Duration duration, Recorder latencies)
            throws Exception {
        AtomicLong stored = new AtomicLong();
        long end = System.nanoTime() + duration.toNanos();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> running = new ArrayList<>();
            long start = System.nanoTime();
            for (int t = 0; t < threads; t++) {
                running.add(pool.submit(() -> {
                    while (System.nanoTime() < end) {
                        long before = System.nanoTime();
                        try {
                            if (producer.send(new Message(TOPIC, "T", body)).getSendStatus() == SendStatus.SEND_OK) {
                                latencies.recordValue((System.nanoTime() - before) / 1000);
                                stored.incrementAndGet();
                            }
                        } catch (Exception e) {
                            // counted as not stored
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> future : running) {
                future.get();
            }
            return stored.get() / ((System.nanoTime() - start) / 1e9);
        } finally {
            pool.shutdown();
        }
    }

    /** The topic on every master, 8 queues each, by {@code ferry-server admin}, which speaks to either cluster. */
    private static Runnable createTopic(String ns) {
        return () -> TestCluster.admin(ns, "topic", "create", TOPIC, "--queues", "8");
    }

    private static void closeAll(List<ServerProcess> nodes) throws InterruptedException {
        for (int i = nodes.size() - 1; i >= 0; i--) {
            nodes.get(i).close();
        }
    }

    private int freePort() throws IOException {
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = SideBySide.freePorts()[0];
            if (taken.add(port)) {
                return port;
            }
        }
        throw new IOException("no free port");
    }

    /** A broker port whose neighbours (Apache's VIP channel below, the HA port above) are free and not handed out. */
    private int freeBrokerPort() throws IOException {
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = SideBySide.freePorts()[1];
            if (!taken.contains(port - 2) && !taken.contains(port) && !taken.contains(port + 1)) {
                taken.addAll(List.of(port - 2, port, port + 1));
                return port;
            }
        }
        throw new IOException("no free broker port");
    }
}
