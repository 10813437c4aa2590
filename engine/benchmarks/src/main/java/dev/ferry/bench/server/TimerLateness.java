package dev.ferry.bench.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.HdrHistogram.Histogram;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * How late timer messages arrive, on ferry-server and on Apache RocketMQ 5.3.3 (its timer wheel, on by default), under
 * the same Apache-client load: timer messages sent at a steady rate (asynchronously, paced), each asking with
 * {@code Message.setDeliverTimeMs} for a time a seeded-random 1 to 10 s ahead, to a topic of four queues; a push
 * consumer subscribed before the first send records each one's receive time minus the time it asked for. Both brokers
 * flush asynchronously, in child JVMs with the same heap, one after the other; every measurement is a fresh broker and
 * a fresh load JVM, the order reversed every round (Ferry, Apache, Apache, Ferry, ...).
 *
 * <p>Prints the lateness percentiles, the arrivals before the asked time (there must be none), the messages missing
 * and arriving twice, and where the lateness went when the broker marks the fired message with TIMER_DEQUEUE_MS: the
 * firing (TIMER_DEQUEUE_MS minus the asked time) and the delivery after it, split at the fired message's store
 * timestamp (the broker storing it in its topic again, then the pull and the client).
 *
 * <pre>java -cp engine/benchmarks/target/benchmarks.jar dev.ferry.bench.server.TimerLateness</pre>
 */
@Command(name = "timer-lateness", mixinStandardHelpOptions = true,
        description = "Lateness of timer messages, Ferry's broker beside Apache RocketMQ's timer wheel.")
public final class TimerLateness implements Callable<Integer> {
    private static final String P99 = "lateness p99 (ms)";
    /** Figures that count events: summed over the rounds, not averaged. */
    private static final Set<String> COUNTS = Set.of("timer messages sent", "send failures", "unanswered sends",
            "received early", "missing", "duplicates", "measured without TIMER_DEQUEUE_MS");
    /** Figures that are extremes: the largest over the rounds. */
    private static final Set<String> MAXIMA = Set.of("lateness max (ms)", "fired to listener max (ms)",
            "most early (ms)");

    @Spec
    CommandSpec spec;

    @Option(names = "--work-dir", description = "Scratch directory (deleted first).")
    Path workDir = Path.of(System.getProperty("java.io.tmpdir"), "ferry-timer-lateness");

    @Option(names = "--heap", description = "-Xmx of each broker JVM.")
    String heap = "1g";

    @Option(names = "--segment-mib", description = "Commit-log file size of both brokers, MiB.")
    int segmentMib = 128;

    @Option(names = "--rate", description = "Timer messages sent per second.")
    int rate = 1000;

    @Option(names = "--duration-s", description = "Seconds of measured sending.")
    int durationSeconds = 60;

    @Option(names = "--warmup-s", description = "Seconds of the same sending before the measured part, its messages"
            + " checked (early, missing, duplicates) but their lateness not recorded.")
    int warmupSeconds = 10;

    @Option(names = "--min-delay-ms", description = "Shortest delay a message asks for.")
    long minDelayMs = 1_000;

    @Option(names = "--max-delay-ms", description = "Longest delay a message asks for (uniform in between).")
    long maxDelayMs = 10_000;

    @Option(names = "--seed", description = "Seed of the delays.")
    long seed = 20_261_205L;

    @Option(names = "--queues", description = "Queues of the topic.")
    int queues = 4;

    @Option(names = "--size", description = "Body bytes.")
    int size = 256;

    @Option(names = "--rounds", description = "Rounds; each measures every broker once, in the reverse order of the "
            + "round before; the table shows means (counts summed).")
    int rounds = 2;

    @Option(names = "--only", description = "Measure one broker only: ferry or apache.")
    String only;

    @Option(names = "--ferry-config", description = "A key=value line for ferry-server's --config file (repeatable);"
            + " the harness sets commitLogSegmentSize and flushMode itself.")
    List<String> ferryConfig = new ArrayList<>();

    @Option(names = "--broker-jvm-arg", description = "An extra JVM option for the broker JVMs (repeatable; {broker}"
            + " stands for its name), e.g. -XX:StartFlightRecording=filename={broker}.jfr to profile them.")
    List<String> brokerJvmArgs = new ArrayList<>();

    @Option(names = "--load-jvm-arg", description = "An extra JVM option for the load JVMs (repeatable; {broker}"
            + " stands for the broker's name).")
    List<String> loadJvmArgs = new ArrayList<>();

    @Option(names = "--arrivals-dir", description = "Write every timer message's arrival (its asked time, TIMER_OUT_MS,"
            + " TIMER_DEQUEUE_MS, store timestamp, queue and receive time) to a CSV file per measurement here.")
    Path arrivalsDir;

    @Option(names = "--results-file", hidden = true,
            description = "Measure --only in this JVM and write the figures here (what the parent JVM asks).")
    Path resultsFile;

    public static void main(String[] args) {
        // the parent hands its own arguments on to each measuring JVM, with --only and the rest after them
        System.exit(new CommandLine(new TimerLateness()).setOverwrittenOptionsAllowed(true).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (only != null && !List.of("ferry", "apache").contains(only)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--only takes ferry or apache, not " + only);
        }
        TimerLoad.Shape shape = shape();
        if (resultsFile != null) {
            return measureHere(shape);
        }
        SideBySide.deleteRecursively(workDir);
        Files.createDirectories(workDir);
        List<String> order = new ArrayList<>(only == null ? List.of("ferry", "apache") : List.of(only));
        Map<String, List<Map<String, Double>>> measured = new LinkedHashMap<>();
        for (int round = 1; round <= rounds; round++) {
            for (String broker : order) {
                measured.computeIfAbsent(broker, k -> new ArrayList<>()).add(inFreshJvm(broker, broker + "-" + round));
            }
            Collections.reverse(order);
        }
        print(measured);
        return 0;
    }

    private TimerLoad.Shape shape() {
        try {
            return new TimerLoad.Shape(rate, Duration.ofSeconds(warmupSeconds), Duration.ofSeconds(durationSeconds),
                    minDelayMs, maxDelayMs, seed, queues, size);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /** One broker's measurement in a JVM of its own, so that neither broker meets a client another one warmed up. */
    private Map<String, Double> inFreshJvm(String broker, String name) throws Exception {
        Path results = workDir.resolve(name + ".results");
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java));
        loadJvmArgs.forEach(arg -> command.add(arg.replace("{broker}", name)));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), TimerLateness.class.getName()));
        command.addAll(spec.commandLine().getParseResult().originalArgs());
        command.addAll(List.of("--only=" + broker, "--results-file=" + results,
                "--work-dir=" + workDir.resolve(name)));
        Process process = new ProcessBuilder(command).inheritIO().start();
        if (process.waitFor() != 0 || !Files.exists(results)) {
            throw new IOException("the measurement of " + name + " failed (exit " + process.exitValue() + ")");
        }
        Map<String, Double> figures = FigureFile.read(results);
        SideBySide.deleteRecursively(workDir.resolve(name));
        return figures;
    }

    /** The child's side of {@link #inFreshJvm}: starts the broker, runs the load, writes the figures. */
    private int measureHere(TimerLoad.Shape shape) throws Exception {
        if (only == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--results-file needs --only");
        }
        SideBySide.deleteRecursively(workDir);
        Files.createDirectories(workDir);
        int[] ports = SideBySide.freePorts();
        List<String> command = new BrokerLaunch(heap, segmentMib, false, ferryConfig, brokerJvmArgs, null)
                .command(only, ports, workDir);
        System.out.println("== " + only + ": " + BrokerLaunch.brief(command));
        Map<String, Double> figures;
        try (ServerProcess server = ServerProcess.start(only, "127.0.0.1:" + ports[0], command, workDir)) {
            new ClientLoad(server.nameServer, "W" + only).timeToReadyMillis(server);
            TimerLoad.Run run = new TimerLoad(server.nameServer, "T" + only, Clock.systemUTC(),
                    arrivalsDir == null ? null : arrivalsDir.resolve(resultsFile.getFileName() + ".arrivals.csv"))
                    .run(shape, server::cpuNanos);
            figures = figures(run);
        }
        figures.forEach((k, v) -> System.out.printf(Locale.ROOT, "  %-40s %,14.1f%n", k, v));
        FigureFile.write(resultsFile, figures);
        return 0;
    }

    private static Map<String, Double> figures(TimerLoad.Run run) {
        TimerDeliveries deliveries = run.deliveries();
        Map<String, Double> figures = new LinkedHashMap<>();
        Histogram lateness = deliveries.lateness();
        figures.put("lateness p50 (ms)", millis(lateness.getValueAtPercentile(50)));
        figures.put(P99, millis(lateness.getValueAtPercentile(99)));
        figures.put("lateness p99.9 (ms)", millis(lateness.getValueAtPercentile(99.9)));
        figures.put("lateness max (ms)", millis(lateness.getMaxValue()));
        Histogram firing = deliveries.firing();
        Histogram delivery = deliveries.delivery();
        if (firing.getTotalCount() > 0) {
            figures.put("fired after asked p50 (ms)", millis(firing.getValueAtPercentile(50)));
            figures.put("fired after asked p99 (ms)", millis(firing.getValueAtPercentile(99)));
            figures.put("fired to listener p50 (ms)", millis(delivery.getValueAtPercentile(50)));
            figures.put("fired to listener p99 (ms)", millis(delivery.getValueAtPercentile(99)));
            figures.put("fired to listener max (ms)", millis(delivery.getMaxValue()));
            Histogram restoring = deliveries.restoring();
            Histogram pulling = deliveries.pulling();
            figures.put("fired to stored again p50 (ms)", millis(restoring.getValueAtPercentile(50)));
            figures.put("fired to stored again p99 (ms)", millis(restoring.getValueAtPercentile(99)));
            figures.put("stored again to listener p50 (ms)", millis(pulling.getValueAtPercentile(50)));
            figures.put("stored again to listener p99 (ms)", millis(pulling.getValueAtPercentile(99)));
        }
        figures.put("timer messages sent", (double) deliveries.total());
        figures.put("send failures", (double) deliveries.failed());
        figures.put("unanswered sends", (double) deliveries.unanswered());
        figures.put("received early", (double) deliveries.early());
        figures.put("most early (ms)", millis(deliveries.mostEarlyMicros()));
        figures.put("missing", (double) deliveries.missing());
        figures.put("duplicates", (double) deliveries.duplicates());
        figures.put("measured without TIMER_DEQUEUE_MS", (double) deliveries.withoutDequeueTime());
        figures.put("measured send rate (msg/s)", run.sentPerSecond());
        figures.put("broker CPU per timer message (us)", run.brokerCpuNanosPer() / 1000);
        figures.put("client CPU per timer message (us)", run.clientCpuNanosPer() / 1000);
        return figures;
    }

    private static double millis(long micros) {
        return micros / 1000.0;
    }

    private void print(Map<String, List<Map<String, Double>>> measured) {
        Map<String, Map<String, Double>> merged = new LinkedHashMap<>();
        measured.forEach((broker, runs) -> merged.put(broker.equals("ferry") ? "Ferry" : "Apache", merge(runs)));
        System.out.printf(Locale.ROOT, "%n%s of %d round(s): %d timer messages/s, %d s measured after %d s, delays"
                + " %d-%d ms (Apache's timer wheel at its defaults: timerWheelEnable, timerPrecisionMs 1000)%n",
                rounds > 1 ? "Means (counts summed, maxima the largest)" : "Figures", rounds, rate, durationSeconds,
                warmupSeconds, minDelayMs, maxDelayMs);
        SideBySide.print(merged, "Ferry", "Apache");
        if (measured.containsKey("ferry") && measured.containsKey("apache")) {
            List<String> perRound = new ArrayList<>();
            for (int i = 0; i < rounds; i++) {
                perRound.add(String.format(Locale.ROOT, "%.2f", measured.get("ferry").get(i).get(P99)
                        / measured.get("apache").get(i).get(P99)));
            }
            System.out.println("lateness p99 Ferry/Apache per round: " + String.join(", ", perRound));
        }
    }

    /** Each figure's mean over the runs; counts summed, extremes the largest. */
    private static Map<String, Double> merge(List<Map<String, Double>> runs) {
        Map<String, Double> sums = new LinkedHashMap<>();
        Map<String, Double> largest = new LinkedHashMap<>();
        runs.forEach(figures -> figures.forEach((key, value) -> {
            sums.merge(key, value, Double::sum);
            largest.merge(key, value, Math::max);
        }));
        Map<String, Double> merged = new LinkedHashMap<>();
        sums.forEach((key, sum) -> merged.put(key, MAXIMA.contains(key) ? largest.get(key)
                : COUNTS.contains(key) ? sum : sum / runs.size()));
        return merged;
    }

}
