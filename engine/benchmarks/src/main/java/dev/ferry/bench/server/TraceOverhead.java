package dev.ferry.bench.server;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * What message trace costs a sync send: Ferry's client sending 1 KiB synchronously from 16 threads to one ferry-server
 * (traceTopicEnable on), its producer without trace and with {@code enableMsgTrace}, in turns on the same broker, the
 * order reversed every round so that neither side always meets the warmer machine, after one unmeasured turn of each.
 * Each turn is a fresh client.
 * Prints each turn's throughput and the traced / untraced ratio per round, and the ratios' geometric mean, median and
 * range.
 *
 * <pre>java -cp engine/benchmarks/target/benchmarks.jar dev.ferry.bench.server.TraceOverhead</pre>
 */
@Command(name = "trace-overhead", mixinStandardHelpOptions = true,
        description = "Sync-send throughput of Ferry's client with message trace on against off.")
public final class TraceOverhead implements Callable<Integer> {

    @Option(names = "--work-dir", description = "Scratch directory (deleted first).")
    Path workDir = Path.of(System.getProperty("java.io.tmpdir"), "ferry-trace-overhead");

    @Option(names = "--heap", description = "-Xmx of the broker JVM.")
    String heap = "1g";

    @Option(names = "--segment-mib", description = "Commit-log file size, MiB.")
    int segmentMib = 128;

    @Option(names = "--threads", description = "Sending threads.")
    int threads = 16;

    @Option(names = "--size", description = "Body bytes.")
    int size = 1024;

    @Option(names = "--duration-s", description = "Seconds of each measured turn.")
    int durationSeconds = 10;

    @Option(names = "--warmup-s", description = "Seconds of the same sends, unmeasured, before each turn.")
    int warmupSeconds = 5;

    @Option(names = "--rounds", description = "Rounds, each one turn without trace and one with.")
    int rounds = 3;

    public static void main(String[] args) {
        System.exit(new CommandLine(new TraceOverhead()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        SideBySide.deleteRecursively(workDir);
        Files.createDirectories(workDir);
        int[] ports = SideBySide.freePorts();
        Path config = workDir.resolve("ferry.properties");
        Files.writeString(config, "commitLogSegmentSize=" + segmentMib * 1024 * 1024 + "\ntraceTopicEnable=true\n",
                StandardCharsets.UTF_8);
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-Xms" + heap, "-Xmx" + heap, "-cp",
                System.getProperty("java.class.path"), "dev.ferry.server.cli.FerryServerCommand", "--namesrv-port",
                ports[0] + "", "--broker-port", ports[1] + "", "--store-dir", workDir.resolve("store").toString(),
                "--config", config.toString()));
        String nameServer = "127.0.0.1:" + ports[0];
        List<Double> ratios = new ArrayList<>();
        try (ServerProcess server = ServerProcess.start("ferry-trace", nameServer, command, workDir)) {
            new ClientLoad(nameServer, "Tready").timeToReadyMillis(server);
            // both kinds once, unmeasured: the broker's and this JVM's code compiled before the first round
            turn(nameServer, 0, false);
            turn(nameServer, 0, true);
            System.out.printf(Locale.ROOT, "| round | %14s | %14s | %8s | %14s |%n", "off (msg/s)", "on (msg/s)",
                    "on / off", "traces dropped");
            System.out.println("|-------|----------------|----------------|----------|----------------|");
            for (int round = 1; round <= rounds; round++) {
                boolean tracedFirst = round % 2 == 0;
                double[] first = turn(nameServer, round, tracedFirst);
                double[] second = turn(nameServer, round, !tracedFirst);
                double[] off = tracedFirst ? second : first;
                double[] on = tracedFirst ? first : second;
                ratios.add(on[0] / off[0]);
                System.out.printf(Locale.ROOT, "| %5d | %,14.0f | %,14.0f | %8.3f | %,14.0f |%n", round, off[0],
                        on[0], on[0] / off[0], on[1]);
            }
        }
        double logSum = ratios.stream().mapToDouble(Math::log).sum();
        List<Double> sorted = ratios.stream().sorted().toList();
        System.out.printf(Locale.ROOT, "on / off over %d rounds: geometric mean %.3f, median %.3f, lowest %.3f, "
                + "highest %.3f%n", rounds, Math.exp(logSum / rounds), sorted.get(sorted.size() / 2), sorted.get(0),
                sorted.get(sorted.size() - 1));
        return 0;
    }

    /**
     * One fresh client's sync sends, traced or not, after a warm-up of the same sends: messages per second, and the
     * trace records the measured producer lost.
     */
    private double[] turn(String nameServer, int round, boolean traced) throws Exception {
        UnaryOperator<dev.ferry.client.ProducerConfig.Builder> producer = builder -> builder.enableMsgTrace(traced);
        String prefix = "T" + (traced ? "on" : "off") + round;
        try (FerryClientLoad load = new FerryClientLoad(nameServer, prefix, UnaryOperator.identity(), producer)) {
            load.syncSend(threads, size, Duration.ofSeconds(warmupSeconds));
            double perSecond = load.syncSend(threads, size, Duration.ofSeconds(durationSeconds));
            return new double[] {perSecond, load.tracesDropped()};
        }
    }
}
