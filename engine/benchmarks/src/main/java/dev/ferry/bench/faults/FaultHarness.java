package dev.ferry.bench.faults;

import dev.ferry.bench.faults.FaultFigures.GroupFigures;
import dev.ferry.format.ChildJvm;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Runs producers and consumers against a cluster of Ferry's brokers and then of Apache RocketMQ 5.3.3's, the same
 * topology, clients and seeded faults for both, and reports what the history checker found side by side.
 *
 * <pre>
 * java -cp engine/benchmarks/target/benchmarks.jar dev.ferry.bench.faults.FaultHarness --seed 20261206 --minutes 30
 * </pre>
 */
@Command(name = "fault-harness", mixinStandardHelpOptions = true,
        description = "Random faults against Ferry's and Apache RocketMQ's clusters, every operation checked.")
public final class FaultHarness implements Callable<Integer> {
    @Option(names = "--seed", description = "Seed of the faults (default: drawn and printed).")
    Long seed;

    @Option(names = "--minutes", description = "Minutes of faults per run (default ${DEFAULT-VALUE}).")
    double minutes = 2;

    @Option(names = "--brokers", split = ",", description = "Whose brokers, in order: ferry, apache "
            + "(default ${DEFAULT-VALUE}).")
    List<String> brokers = List.of("ferry", "apache");

    @Option(names = "--consumers", description = "Consumer processes per client kind (default ${DEFAULT-VALUE}).")
    int consumers = 2;

    @Option(names = "--fault-seconds", split = ",", description = "Shortest and longest fault (default "
            + "${DEFAULT-VALUE}).")
    List<Double> faultSeconds = List.of(4.0, 10.0);

    @Option(names = "--gap-seconds", split = ",", description = "Shortest and longest quiet spell after a healing "
            + "(default ${DEFAULT-VALUE}).")
    List<Double> gapSeconds = List.of(3.0, 6.0);

    @Option(names = "--in-sync-replicas", description = "The SYNC_MASTER's inSyncReplicas: 2 (default) makes "
            + "Apache's wait for its slave as Ferry's does; 1 is Apache 5's default, under which its SYNC_MASTER "
            + "acknowledges without its slave.")
    int inSyncReplicas = 2;

    @Option(names = "--no-disk", description = "No DISK_FULL faults (they fill the shared disk for seconds).")
    boolean noDisk;

    @Option(names = "--work-dir", description = "Scratch directory (deleted first).")
    Path workDir = Path.of(System.getProperty("java.io.tmpdir"), "ferry-fault-harness");

    @Option(names = "--check", description = "Check the histories a run left in this directory (its work directory, "
            + "one subdirectory per kind of brokers) instead of running.")
    Path check;

    @Option(names = "--class-path", description = "Class path of the child JVMs (default: this JVM's).")
    String classPath = ChildJvm.classPath();

    private PrintStream out = System.out;
    private final List<ExternalConsumer> externals = new ArrayList<>();

    public static void main(String[] args) {
        // Netty would log through the SLF4J binding Apache's jars bring, whose set-up prints pages of status
        io.netty.util.internal.logging.InternalLoggerFactory.setDefaultFactory(
                io.netty.util.internal.logging.JdkLoggerFactory.INSTANCE);
        System.exit(new CommandLine(new FaultHarness()).execute(args));
    }

    /** Where the plan, the progress and the report go (default: standard output). */
    public FaultHarness output(PrintStream stream) {
        this.out = stream;
        return this;
    }

    public FaultHarness seed(long value) {
        this.seed = value;
        return this;
    }

    public FaultHarness minutes(double value) {
        this.minutes = value;
        return this;
    }

    /** Whose brokers, in order: {@code ferry}, {@code apache}. */
    public FaultHarness brokers(String... kinds) {
        this.brokers = List.of(kinds);
        return this;
    }

    /** Consumer processes per client kind. */
    public FaultHarness consumers(int perKind) {
        this.consumers = perKind;
        return this;
    }

    public FaultHarness workDir(Path dir) {
        this.workDir = dir;
        return this;
    }

    /**
     * Adds a consumer beside the client processes to every run: started against each run's cluster, a target of the
     * plan's CONSUMER_KILL faults, its receipts checked against its group's promise.
     */
    public FaultHarness externalConsumer(ExternalConsumer consumer) {
        this.externals.add(consumer);
        return this;
    }

    @Override
    public Integer call() throws Exception {
        Map<String, FaultFigures> results = check != null ? checkAgain(check) : runAll();
        out.println(report(results));
        return results.containsKey("ferry") && results.get("ferry").violated() ? 1 : 0;
    }

    /** Runs each kind of brokers in turn; figures by kind. */
    public Map<String, FaultFigures> runAll() throws IOException, InterruptedException {
        if (inSyncReplicas < 1 || inSyncReplicas > 2) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--in-sync-replicas is 1 or 2, not "
                    + inSyncReplicas);
        }
        long chosen = seed != null ? seed : new java.security.SecureRandom().nextLong();
        out.printf("seed %d (replay with --seed %d), inSyncReplicas=%d%n", chosen, chosen, inSyncReplicas);
        deleteRecursively(workDir);
        Files.createDirectories(workDir);
        DiskBallast ballast = noDisk ? null : DiskBallast.forDisk(workDir);
        if (!noDisk && ballast == null) {
            out.println("no DISK_FULL faults: this machine has no fallocate, or filling its disk would take more than "
                    + "half of what is left");
        }
        List<String> victims = new ArrayList<>(FaultRun.consumerNames(consumers));
        externals.forEach(external -> victims.add(external.name()));
        FaultPlan plan = FaultPlan.draw(chosen, (long) (minutes * 60_000), millis(faultSeconds.get(0)),
                millis(faultSeconds.get(1)), millis(gapSeconds.get(0)), millis(gapSeconds.get(1)), victims,
                ballast != null);
        plan.faults().forEach(f -> out.println("  " + f));
        Map<String, FaultFigures> results = new LinkedHashMap<>();
        for (String kind : brokers) {
            FaultRun run = new FaultRun(FaultCluster.Kind.valueOf(kind.toUpperCase(Locale.ROOT)),
                    workDir.resolve(kind), classPath, plan, consumers, Duration.ofSeconds(10), Duration.ofSeconds(15),
                    Duration.ofSeconds(120), ballast, inSyncReplicas, externals);
            results.put(kind, run.run(out));
        }
        return results;
    }

    /** The figures of the histories a run left under {@code dir}, by kind of brokers. */
    private Map<String, FaultFigures> checkAgain(Path dir) throws IOException {
        Map<String, FaultFigures> results = new LinkedHashMap<>();
        for (String kind : brokers) {
            Path histories = dir.resolve(kind).resolve("history");
            if (Files.isDirectory(histories)) {
                results.put(kind, HistoryChecker.check(HistoryLog.readAll(histories)));
            }
        }
        return results;
    }

    private static long millis(double seconds) {
        return (long) (seconds * 1000);
    }

    /** The figures of each run as a table, one column per kind of brokers. */
    public static String report(Map<String, FaultFigures> results) {
        List<String> kinds = new ArrayList<>(results.keySet());
        StringBuilder table = new StringBuilder();
        table.append(String.format(Locale.ROOT, "%n| %-40s |", "brokers"));
        kinds.forEach(k -> table.append(String.format(Locale.ROOT, " %12s |", k)));
        table.append("\n|").append("-".repeat(42)).append("|");
        kinds.forEach(k -> table.append("-".repeat(14)).append("|"));
        table.append("\n");
        row(table, results, kinds, "faults", f -> Long.toString(f.totalFaults()));
        row(table, results, kinds, "sends acknowledged", f -> Long.toString(f.ok()));
        row(table, results, kinds, "sends failed", f -> Long.toString(f.failed()));
        row(table, results, kinds, "sends of unknown outcome", f -> Long.toString(f.unknown()));
        for (String group : namesAcross(results, FaultFigures::groups)) {
            Function<Function<GroupFigures, Object>, Function<FaultFigures, String>> of = figure -> f ->
                    f.groups().containsKey(group) ? String.valueOf(figure.apply(f.groups().get(group))) : "-";
            // every run of one harness declares a group alike
            ConsumerGroup promise = results.values().stream().map(f -> f.groups().get(group))
                    .filter(Objects::nonNull).findFirst().orElseThrow().group();
            boolean orderly = promise.orderly();
            boolean exactlyOnce = promise.exactlyOnce();
            row(table, results, kinds, group + ": expected", of.apply(GroupFigures::expected));
            row(table, results, kinds, group + ": lost", of.apply(GroupFigures::lost));
            row(table, results, kinds, group + ": unexpected", of.apply(FaultHarness::unexpected));
            row(table, results, kinds, group + (exactlyOnce ? ": duplicated (exactly once)" : ": duplicated"),
                    of.apply(GroupFigures::duplicates));
            if (orderly) {
                row(table, results, kinds, group + ": out of order", of.apply(GroupFigures::outOfOrder));
            } else {
                row(table, results, kinds, group + ": rolled back, delivered", of.apply(GroupFigures::rolledBack));
                row(table, results, kinds, group + ": delivered early (max ms)", of.apply(g -> g.early() + " ("
                        + g.maxEarlyMillis() + ")"));
            }
            row(table, results, kinds, group + ": unknown sends delivered", of.apply(GroupFigures::unknownDelivered));
        }
        row(table, results, kinds, "send recovery p50 / p99 (s)", f -> percentiles(f.sendRecovery()));
        row(table, results, kinds, "receive recovery p50 / p99 (s)", f -> percentiles(f.recvRecovery()));
        row(table, results, kinds, "faults without recovery", f -> Long.toString(f.unrecovered()));
        for (FaultPlan.Kind kind : FaultPlan.Kind.values()) {
            String name = kind.name();
            row(table, results, kinds, name + ": faults", f -> Long.toString(f.faults().getOrDefault(name, 0L)));
            row(table, results, kinds, name + ": send recovery p50 / p99", f -> percentiles(
                    f.sendRecoveryByKind().getOrDefault(name, List.of())));
            row(table, results, kinds, name + ": receive recovery p50 / p99", f -> percentiles(
                    f.recvRecoveryByKind().getOrDefault(name, List.of())));
        }
        for (String consumer : namesAcross(results, FaultFigures::consumerRecovery)) {
            row(table, results, kinds, consumer + " killed: p50 / p99 (s)", f -> percentiles(
                    f.consumerRecovery().getOrDefault(consumer, List.of())));
        }
        for (String kind : kinds) {
            results.get(kind).groups().forEach((group, g) -> {
                if (!g.lostKeys().isEmpty()) {
                    table.append(kind).append(" ").append(group).append(" lost, first keys: ").append(g.lostKeys())
                            .append("\n");
                }
            });
        }
        return table.toString();
    }

    /** The keys of {@code of} of any run, sorted: one row each. */
    private static List<String> namesAcross(Map<String, FaultFigures> results,
                                            Function<FaultFigures, Map<String, ?>> of) {
        return results.values().stream().flatMap(f -> of.apply(f).keySet().stream()).distinct().sorted().toList();
    }

    /** Received though never sent, or received though its send surely failed. */
    private static long unexpected(GroupFigures group) {
        return group.unexpected() + group.failedDelivered();
    }

    private static void row(StringBuilder table, Map<String, FaultFigures> results, List<String> kinds, String name,
                            Function<FaultFigures, String> figure) {
        table.append(String.format(Locale.ROOT, "| %-40s |", name));
        kinds.forEach(k -> table.append(String.format(Locale.ROOT, " %12s |", figure.apply(results.get(k)))));
        table.append("\n");
    }

    static String percentiles(List<Long> millis) {
        if (millis.isEmpty()) {
            return "-";
        }
        List<Long> sorted = millis.stream().sorted(Comparator.naturalOrder()).toList();
        return String.format(Locale.ROOT, "%.1f / %.1f", at(sorted, 0.50) / 1000.0, at(sorted, 0.99) / 1000.0);
    }

    private static long at(List<Long> sorted, double quantile) {
        int index = (int) Math.ceil(quantile * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }

    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
