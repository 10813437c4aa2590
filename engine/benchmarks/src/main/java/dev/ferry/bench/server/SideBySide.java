package dev.ferry.bench.server;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.HdrHistogram.Histogram;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Starts ferry-server and an Apache RocketMQ 5.3.3 name server + broker, each in a child JVM
 * with the same heap and commit-log file size, drives both with the same Apache-client load
 * one after the other, and prints Ferry, Apache and their ratio for every figure. Each broker's
 * load runs in a fresh JVM of its own, so the order of the two measurements favours neither.
 *
 * <pre>java -cp engine/benchmarks/target/benchmarks.jar dev.ferry.bench.server.SideBySide</pre>
 *
 * <p>With {@code --sync-flush} both brokers flush synchronously (an acknowledged send is on disk) and only the
 * figures the flush changes are measured: time to ready and the sends.
 *
 * <p>With {@code --clients} it compares clients instead: on each broker, Ferry's client and the Apache client
 * run the same sends and backlog drain, each against a fresh broker from a fresh JVM, and it prints their
 * ratio per broker.
 */
@Command(name = "side-by-side", mixinStandardHelpOptions = true,
        description = "Ferry's broker beside Apache RocketMQ's under the same Apache-client load.")
public final class SideBySide implements Callable<Integer> {

    @Option(names = "--work-dir", description = "Scratch directory (deleted first).")
    Path workDir = Path.of(System.getProperty("java.io.tmpdir"), "ferry-side-by-side");

    @Option(names = "--heap", description = "-Xmx of each broker JVM.")
    String heap = "1g";

    @Option(names = "--segment-mib", description = "Commit-log file size of both brokers, MiB.")
    int segmentMib = 128;

    @Option(names = "--duration-s", description = "Seconds of each send measurement.")
    int durationSeconds = 15;

    @Option(names = "--warmup-s", description = "Seconds of the same sends, unmeasured, before each send measurement.")
    int warmupSeconds = 20;

    @Option(names = "--warmup-backlog", description = "Messages of a backlog filled and drained, unmeasured, on a "
            + "topic of its own before the measured drain.")
    long warmupBacklog = 200_000;

    @Option(names = "--backlog", description = "Messages in the backlog the consumer drains.")
    long backlog = 1_000_000;

    @Option(names = "--backlog-size", description = "Body bytes of backlog messages.")
    int backlogSize = 256;

    @Option(names = "--rate", description = "Messages per second of the latency run.")
    int rate = 1000;

    @Option(names = "--latency-s", description = "Seconds of the latency run.")
    int latencySeconds = 15;

    @Option(names = "--latency-warmup-s", description = "Seconds of the same traffic sent, unrecorded, before the "
            + "latency run.")
    int latencyWarmupSeconds = 10;

    @Option(names = "--rounds", description = "Rounds of measurements. Each round measures every broker once, in "
            + "the reverse order of the round before (Ferry, Apache, Apache, Ferry, ...); the table shows each "
            + "figure's mean over the rounds, so no broker is always the one measured first.")
    int rounds = 2;

    @Option(names = "--sync-flush", description = "Both brokers flush synchronously; only the sends are measured.")
    boolean syncFlush;

    @Option(names = "--figures", split = ",", description = "Which measurements to run, of sync, async, drain and "
            + "latency (default: all); time to ready and memory are always measured.")
    Set<String> figureGroups = new LinkedHashSet<>(ALL_FIGURES);

    @Option(names = "--only", description = "Run one broker only: ferry or apache.")
    String only;

    /** The client a latency run sends and reads with. */
    enum LatencyClient { apache, ferry }

    @Option(names = "--latency-client", description = "The client of the latency run: ${COMPLETION-CANDIDATES} "
            + "(default apache); Ferry's fewer thread hand-offs leave more of the end-to-end time to the broker.")
    LatencyClient latencyClient = LatencyClient.apache;

    @Option(names = "--ferry-classpath", description = "Class path of the ferry-server to measure (default: this "
            + "harness's own), e.g. another build's benchmarks.jar, to compare two builds under the same load.")
    String ferryClasspath;

    @Option(names = "--ferry-config", description = "A key=value line for ferry-server's --config file (repeatable), "
            + "e.g. ioThreads=1; the harness sets commitLogSegmentSize and flushMode itself.")
    List<String> ferryConfig = new ArrayList<>();

    @Option(names = "--clients", description = "Compare Ferry's client with the Apache client on each broker.")
    boolean compareClients;

    @Option(names = "--client", hidden = true, description = "With --clients: the one client this JVM runs.")
    String client = "apache";

    @Option(names = "--results-file", hidden = true,
            description = "Measure --only in this JVM and write the figures here (what the parent JVM asks).")
    Path resultsFile;

    @Option(names = "--broker-jvm-arg", description = "An extra JVM option for the broker JVMs (repeatable), "
            + "e.g. -XX:StartFlightRecording=filename=broker.jfr to profile them.")
    List<String> brokerJvmArgs = new ArrayList<>();

    @Option(names = "--load-jvm-arg", description = "An extra JVM option for the JVMs that run the client load "
            + "(repeatable; {broker} stands for the broker's name), e.g. "
            + "-XX:StartFlightRecording=filename=load-{broker}.jfr to profile the client.")
    List<String> loadJvmArgs = new ArrayList<>();

    private static final List<String> ALL_FIGURES = List.of("sync", "async", "drain", "latency");

    public static void main(String[] args) {
        System.exit(new CommandLine(new SideBySide()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (!ALL_FIGURES.containsAll(figureGroups)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--figures takes " + ALL_FIGURES
                    + ", not " + figureGroups);
        }
        if (resultsFile != null) {
            return measureHere();
        }
        deleteRecursively(workDir);
        Files.createDirectories(workDir);
        List<String> brokers = only == null ? List.of("ferry", "apache") : List.of(only);
        if (compareClients) {
            for (String broker : brokers) {
                Map<String, Double> apacheClient = inFreshJvm(broker, "apache", broker + "-apache-client");
                Map<String, Double> ferryClient = inFreshJvm(broker, "ferry", broker + "-ferry-client");
                System.out.printf(Locale.ROOT, "%n%s broker:%n", broker);
                print(Map.of("Ferry", ferryClient, "Apache", apacheClient), "Ferry client", "Apache client");
            }
            return 0;
        }
        Map<String, List<Map<String, Double>>> measurements = new LinkedHashMap<>();
        List<String> order = new ArrayList<>(brokers);
        for (int round = 1; round <= rounds; round++) {
            for (String broker : order) {
                String name = rounds == 1 ? broker : broker + "-" + round;
                measurements.computeIfAbsent(broker.equals("ferry") ? "Ferry" : "Apache", k -> new ArrayList<>())
                    .add(inFreshJvm(broker, null, name));
            }
            Collections.reverse(order);
        }
        Map<String, Map<String, Double>> results = new LinkedHashMap<>();
        measurements.forEach((broker, measured) -> results.put(broker, mean(measured)));
        if (rounds > 1) {
            System.out.printf(Locale.ROOT, "%nMeans of %d rounds (order per round alternating, %s first):%n",
                rounds, brokers.get(0));
        }
        print(results, "Ferry", "Apache");
        return 0;
    }

    /** Each figure's mean over the measurements that have it. */
    private static Map<String, Double> mean(List<Map<String, Double>> measured) {
        Map<String, Double> sums = new LinkedHashMap<>();
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (Map<String, Double> figures : measured) {
            figures.forEach((key, value) -> {
                sums.merge(key, value, Double::sum);
                counts.merge(key, 1, Integer::sum);
            });
        }
        Map<String, Double> means = new LinkedHashMap<>();
        sums.forEach((key, sum) -> means.put(key, sum / counts.get(key)));
        return means;
    }

    /**
     * Runs one measurement (one broker; with {@code --clients}, one client on it) in a JVM of its own, so
     * neither side meets a load generator another measurement has already warmed up: run one after the
     * other in one JVM, whatever ran second found the client code compiled and did up to 1.6x better.
     */
    private Map<String, Double> inFreshJvm(String broker, String client, String name) throws Exception {
        Path results = workDir.resolve(name + ".results");
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java));
        for (String arg : loadJvmArgs) {
            command.add(arg.replace("{broker}", name));
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), SideBySide.class.getName(),
                "--only=" + broker, "--results-file=" + results, "--work-dir=" + workDir.resolve(name),
                "--heap=" + heap, "--segment-mib=" + segmentMib, "--duration-s=" + durationSeconds,
                "--warmup-s=" + warmupSeconds, "--warmup-backlog=" + warmupBacklog,
                "--backlog=" + backlog, "--backlog-size=" + backlogSize, "--rate=" + rate,
                "--latency-s=" + latencySeconds, "--latency-warmup-s=" + latencyWarmupSeconds,
                "--figures=" + String.join(",", figureGroups)));
        if (client != null) {
            command.addAll(List.of("--clients", "--client=" + client));
        }
        if (syncFlush) {
            command.add("--sync-flush");
        }
        brokerJvmArgs.forEach(arg -> command.add("--broker-jvm-arg=" + arg));
        command.add("--latency-client=" + latencyClient);
        if (ferryClasspath != null) {
            command.add("--ferry-classpath=" + ferryClasspath);
        }
        ferryConfig.forEach(line -> command.add("--ferry-config=" + line));
        Process process = new ProcessBuilder(command).inheritIO().start();
        if (process.waitFor() != 0 || !Files.exists(results)) {
            throw new IOException("the measurement of " + name + " failed (exit " + process.exitValue() + ")");
        }
        Map<String, Double> figures = FigureFile.read(results);
        // gigabytes of store files: gone before the next measurement, not left to its disk and page cache
        deleteRecursively(workDir.resolve(name));
        return figures;
    }

    /** The child's side of {@link #inFreshJvm}: measures, then writes the figures for the parent. */
    private int measureHere() throws Exception {
        if (only == null) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--results-file needs --only");
        }
        deleteRecursively(workDir);
        Files.createDirectories(workDir);
        FigureFile.write(resultsFile, measure(only));
        return 0;
    }

    private Map<String, Double> measure(String which) throws Exception {
        int[] ports = freePorts();
        Path dir = workDir.resolve(which);
        Files.createDirectories(dir);
        List<String> command = new BrokerLaunch(heap, segmentMib, syncFlush, ferryConfig, brokerJvmArgs,
                ferryClasspath).command(which, ports, dir);
        System.out.println("== " + which + ": " + BrokerLaunch.brief(command));
        Map<String, Double> figures = new LinkedHashMap<>();
        try (ServerProcess server = ServerProcess.start(which, "127.0.0.1:" + ports[0], command, dir)) {
            ClientLoad load = new ClientLoad(server.nameServer, "B" + which);
            if (compareClients) {
                load.timeToReadyMillis(server);
                measureClient(server, load, figures);
                figures.forEach((k, v) -> System.out.printf(Locale.ROOT, "  %-50s %,14.1f%n", k, v));
                return figures;
            }
            figures.put("time to ready (ms)", (double) load.timeToReadyMillis(server));
            if (!syncFlush) {
                Thread.sleep(5000); // let the broker settle before reading its idle memory
                figures.put("idle resident memory (MiB)", server.residentMib());
            }
            Duration warmup = Duration.ofSeconds(warmupSeconds);
            Duration duration = Duration.ofSeconds(durationSeconds);
            if (figureGroups.contains("sync")) {
                ClientLoad.Sends sync = load.syncSend(16, 1024, warmup, duration, server::cpuNanos);
                figures.put("sync send 1 KiB, 16 threads (msg/s)", sync.perSecond());
                figures.put("broker CPU per sync send (us)", sync.brokerCpuNanosPer() / 1000);
                figures.put("client CPU per sync send (us)", sync.clientCpuNanosPer() / 1000);
                System.out.println("  sync done");
            }
            if (figureGroups.contains("async")) {
                ClientLoad.Sends async = load.asyncSend(1024, 1024, warmup, duration, server::cpuNanos);
                figures.put("async send 1 KiB (msg/s)", async.perSecond());
                figures.put("broker CPU per async send (us)", async.brokerCpuNanosPer() / 1000);
                figures.put("client CPU per async send (us)", async.clientCpuNanosPer() / 1000);
                System.out.println("  async done");
            }
            if (!syncFlush && figureGroups.contains("drain")) {
                ClientLoad.Drain drain = load.consumeBacklog(backlog, backlogSize, warmupBacklog, server::cpuNanos);
                figures.put("consume " + backlog + " backlog (msg/s)", drain.perSecond());
                figures.put("consume " + backlog + " from start (msg/s)", drain.fromStartPerSecond());
                figures.put("consumer start to first message (ms)", drain.firstMessageMillis());
                figures.put("broker CPU per drained message (us)", drain.brokerCpuNanosPer() / 1000);
                figures.put("client CPU per drained message (us)", drain.clientCpuNanosPer() / 1000);
                System.out.println("  backlog done");
            }
            if (!syncFlush && figureGroups.contains("latency")) {
                Histogram latency;
                Histogram floor;
                // beside the measured window: after the run's consumer settles and its warm-up
                try (LoopbackEcho echo = LoopbackEcho.start(rate, 1024,
                        Duration.ofSeconds(ClientLoad.LATENCY_SETTLE_SECONDS + latencyWarmupSeconds),
                        Duration.ofSeconds(latencySeconds))) {
                    latency = latencyRun(server, load);
                    floor = echo.histogram();
                }
                System.out.printf(Locale.ROOT, "  loopback echo beside it: %d round trips, p50 %d us, p99 %d us%n",
                        floor.getTotalCount(), floor.getValueAtPercentile(50), floor.getValueAtPercentile(99));
                String by = latencyClient == LatencyClient.ferry ? ", Ferry's client" : "";
                figures.put("e2e latency p50 at " + rate + "/s" + by + " (us)",
                    (double) latency.getValueAtPercentile(50));
                figures.put("e2e latency p99 at " + rate + "/s" + by + " (us)",
                    (double) latency.getValueAtPercentile(99));
                figures.put("e2e latency p99.9 at " + rate + "/s" + by + " (us)",
                    (double) latency.getValueAtPercentile(99.9));
                figures.put("loopback echo p99 beside it (us)", (double) floor.getValueAtPercentile(99));
            }
            if (!syncFlush) {
                figures.put("resident memory after load (MiB)", server.residentMib());
            }
        }
        figures.forEach((k, v) -> System.out.printf(Locale.ROOT, "  %-40s %,14.1f%n", k, v));
        return figures;
    }

    private Histogram latencyRun(ServerProcess server, ClientLoad apache) throws Exception {
        Duration warmup = Duration.ofSeconds(latencyWarmupSeconds);
        Duration duration = Duration.ofSeconds(latencySeconds);
        if (latencyClient == LatencyClient.ferry) {
            try (FerryClientLoad ferry = new FerryClientLoad(server.nameServer, "L" + server.name)) {
                return ferry.latency(rate, warmup, duration, 1024);
            }
        }
        return apache.latency(rate, warmup, duration, 1024);
    }

    /** One client's sends and backlog drain on one broker: the Apache client's or Ferry's. */
    private void measureClient(ServerProcess server, ClientLoad apache, Map<String, Double> figures)
            throws Exception {
        Duration duration = Duration.ofSeconds(durationSeconds);
        String sync = "sync send 1 KiB, 16 threads (msg/s)";
        String async = "async send 1 KiB (msg/s)";
        String drain = "consume " + backlog + " backlog (msg/s)";
        if ("ferry".equals(client)) {
            try (FerryClientLoad ferry = new FerryClientLoad(server.nameServer, "F" + server.name)) {
                figures.put(sync, ferry.syncSend(16, 1024, duration));
                figures.put(async, ferry.asyncSend(1024, 1024, duration));
                figures.put(drain, ferry.consumeBacklog(backlog, backlogSize));
            }
        } else {
            figures.put(sync, apache.syncSend(16, 1024, duration));
            figures.put(async, apache.asyncSend(1024, 1024, duration));
            figures.put(drain, apache.consumeBacklog(backlog, backlogSize));
        }
        System.out.println("  " + client + " client done");
    }

    /** A table of figures, one row each, {@code first}'s and {@code second}'s columns (results "Ferry" and "Apache"). */
    static void print(Map<String, Map<String, Double>> results, String first, String second) {
        Map<String, Double> ferry = results.getOrDefault("Ferry", Map.of());
        Map<String, Double> apache = results.getOrDefault("Apache", Map.of());
        System.out.printf(Locale.ROOT, "%n| %-40s | %14s | %14s | %13s |%n", "figure", first, second,
                first.split(" ")[0] + "/" + second.split(" ")[0]);
        System.out.println("|" + "-".repeat(42) + "|" + "-".repeat(16) + "|" + "-".repeat(16) + "|" + "-".repeat(15)
                + "|");
        List<String> keys = new ArrayList<>(ferry.keySet());
        apache.keySet().stream().filter(k -> !keys.contains(k)).forEach(keys::add);
        for (String key : keys) {
            Double f = ferry.get(key);
            Double a = apache.get(key);
            String ratio = f != null && a != null && a != 0 ? String.format(Locale.ROOT, "%.2f", f / a) : "-";
            System.out.printf(Locale.ROOT, "| %-40s | %14s | %14s | %13s |%n", key, format(f), format(a), ratio);
        }
    }

    private static String format(Double value) {
        return value == null ? "-" : String.format(Locale.ROOT, "%,.1f", value);
    }

    /** Three free ports p, q, r where q-2 and q+1 are free too (Apache's broker binds its port -2 and +1). */
    static int[] freePorts() throws IOException {
        for (int attempt = 0; attempt < 100; attempt++) {
            int namesrv = freePort();
            int broker = freePort();
            if (isFree(broker - 2) && isFree(broker + 1) && broker - 2 != namesrv && broker + 1 != namesrv) {
                return new int[] {namesrv, broker, broker + 1};
            }
        }
        throw new IOException("no free ports found");
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static boolean isFree(int port) {
        try {
            new ServerSocket(port).close();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
