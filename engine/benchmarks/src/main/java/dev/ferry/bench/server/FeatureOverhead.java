package dev.ferry.bench.server;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ferry.remoting.testing.TestCertificates;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.body.AclInfo;
import org.apache.rocketmq.remoting.protocol.body.UserInfo;
import org.apache.rocketmq.remoting.protocol.header.CreateAclRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.CreateUserRequestHeader;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * What a switch costs each broker: sync sends of 1 KiB from 16 threads (the Apache client) against ferry-server and
 * Apache RocketMQ 5.3.3, each plain, with ACL 2.0 on (authentication and authorization, the client signing as a
 * normal user whose policy allows the topic), plain with the load signing all the same (what the signing costs the
 * shared machine, apart from the broker's check), with TLS enforcing, and with metrics on (the Prometheus endpoint
 * scraped every 5 s, as Prometheus would), every measurement a fresh broker and load JVM.
 * Prints each broker's throughput per mode and its overhead ratios (mode / plain) side by side, and the broker's CPU
 * time per send: on two cores the load's own signing and encryption take CPU from the broker too, so throughput
 * shows what a switch costs the whole machine, the CPU time what it costs the broker.
 *
 * <pre>java -cp engine/benchmarks/target/benchmarks.jar dev.ferry.bench.server.FeatureOverhead</pre>
 */
@Command(name = "feature-overhead", mixinStandardHelpOptions = true,
        description = "Throughput with ACL, TLS or metrics on against without, for Ferry and Apache RocketMQ.")
public final class FeatureOverhead implements Callable<Integer> {
    /**
     * "signed" keeps the broker plain while the load signs every request as "acl" does: the difference between it and
     * plain is the load's own signing on the shared cores, the one between acl and it the broker's checking.
     */
    private static final List<String> MODES = List.of("plain", "signed", "acl", "tls", "metrics");
    /** How often the metrics mode scrapes the broker's endpoint while it measures, as Prometheus would. */
    private static final Duration SCRAPE_INTERVAL = Duration.ofSeconds(5);
    private static final String SUPER_USER = "bench-admin";
    private static final String SUPER_PASSWORD = "bench-admin-secret";
    private static final String USER = "bench";
    private static final String PASSWORD = "bench-secret";
    private static final ObjectMapper JSON = new ObjectMapper().setDefaultPropertyInclusion(JsonInclude.Include.NON_NULL);

    @Option(names = "--work-dir", description = "Scratch directory (deleted first).")
    Path workDir = Path.of(System.getProperty("java.io.tmpdir"), "ferry-security-overhead");

    @Option(names = "--heap", description = "-Xmx of each broker JVM.")
    String heap = "1g";

    @Option(names = "--segment-mib", description = "Commit-log file size of both brokers, MiB.")
    int segmentMib = 128;

    @Option(names = "--duration-s", description = "Seconds of each measurement.")
    int durationSeconds = 15;

    @Option(names = "--warmup-s", description = "Seconds of the same sends, unmeasured, before each measurement.")
    int warmupSeconds = 10;

    @Option(names = "--rounds", description = "Rounds; each measures every broker and mode once, the order reversed "
            + "every round; the table shows means.")
    int rounds = 2;

    @Option(names = "--cycles", description = "When above 0, every run's broker runs at once and they take turns:"
            + " each cycle measures every run for --slice-s seconds, the order reversed every cycle, so that the runs"
            + " meet the same machine; prints medians and each mode's ratio to plain within each cycle. The load"
            + " (--client) runs in this JVM.")
    int cycles;

    @Option(names = "--slice-s", description = "Seconds of each run's turn in a cycle (with --cycles).")
    int sliceSeconds = 5;

    @Option(names = "--client", description = "The load's client: apache (the default) or ferry (Ferry's client,"
            + " whose signing costs the machine less).")
    String client = "apache";

    @Option(names = "--runs", split = ",", description = "Only these runs, e.g. ferry:acl,ferry:plain (default: every"
            + " broker in every mode).")
    List<String> runs;

    @Option(names = "--broker-jvm-arg", description = "An extra JVM option for the broker JVMs (repeatable; {run}"
            + " stands for broker-mode), e.g. -XX:StartFlightRecording=filename={run}.jfr to profile them.")
    List<String> brokerJvmArgs = new ArrayList<>();

    @Option(names = "--only", hidden = true, description = "The broker this JVM measures: ferry or apache.")
    String only;

    @Option(names = "--mode", hidden = true,
            description = "The mode this JVM measures: plain, signed, acl, tls or metrics.")
    String mode;

    @Option(names = "--results-file", hidden = true, description = "Where this JVM writes its figure.")
    Path resultsFile;

    public static void main(String[] args) {
        System.exit(new CommandLine(new FeatureOverhead()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (resultsFile != null) {
            ClientLoad.Sends sends = measure(only, mode);
            Files.writeString(resultsFile, sends.perSecond() + "\n" + sends.brokerCpuNanosPer() / 1000 + "\n");
            return 0;
        }
        SideBySide.deleteRecursively(workDir);
        Files.createDirectories(workDir);
        TestCertificates.create(Files.createDirectories(workDir.resolve("tls")), "broker");
        List<String> order = new ArrayList<>();
        for (String broker : List.of("ferry", "apache")) {
            for (String m : MODES) {
                if (runs == null || runs.contains(broker + ":" + m)) {
                    order.add(broker + ":" + m);
                }
            }
        }
        if (cycles > 0) {
            return inTurns(order);
        }
        Map<String, List<double[]>> measured = new LinkedHashMap<>();
        for (int round = 1; round <= rounds; round++) {
            for (String run : order) {
                String[] parts = run.split(":");
                measured.computeIfAbsent(run, k -> new ArrayList<>())
                        .add(inFreshJvm(parts[0], parts[1], parts[0] + "-" + parts[1] + "-" + round));
            }
            Collections.reverse(order);
        }
        print(measured, 0, "sync send 1 KiB, 16 threads (msg/s)", "%,12.0f");
        print(measured, 1, "broker CPU per send (us)", "%12.1f");
        measured.forEach((run, values) -> System.out.printf(Locale.ROOT, "  %s rounds: %s%n", run,
                values.stream().map(v -> String.format(Locale.ROOT, "%.0f msg/s %.1f us", v[0], v[1])).toList()));
        return 0;
    }

    /**
     * Every run's broker started at once, each with its load's producer, then measured in turns: the slow and fast
     * spells of a shared machine, which last longer than a turn, fall on all runs alike instead of on whichever
     * measurement they meet.
     */
    private Integer inTurns(List<String> order) throws Exception {
        Map<String, Started> started = new LinkedHashMap<>();
        Map<String, ClientLoad.SyncSender> senders = new LinkedHashMap<>();
        try {
            for (String run : order) {
                String[] parts = run.split(":");
                Started broker = start(parts[0], parts[1]);
                started.put(run, broker);
                senders.put(run, client.equals("ferry") ? ferryLoad(broker).syncSender(1024)
                        : broker.load.syncSender(1024));
            }
            for (String run : order) {
                senders.get(run).measure(16, Duration.ofSeconds(warmupSeconds), () -> 0L);
            }
            Map<String, List<ClientLoad.Sends>> measured = new LinkedHashMap<>();
            List<String> turn = new ArrayList<>(order);
            for (int cycle = 1; cycle <= cycles; cycle++) {
                for (String run : turn) {
                    ClientLoad.Sends sends = senders.get(run).measure(16, Duration.ofSeconds(sliceSeconds),
                            started.get(run).server::cpuNanos);
                    measured.computeIfAbsent(run, k -> new ArrayList<>()).add(sends);
                    System.out.printf(Locale.ROOT, "  cycle %d %s: %,.0f msg/s, broker %.1f us, load %.1f us per"
                            + " send%n", cycle, run, sends.perSecond(), sends.brokerCpuNanosPer() / 1000,
                            sends.clientCpuNanosPer() / 1000);
                }
                Collections.reverse(turn);
            }
            printTurns(measured);
            return 0;
        } finally {
            closeAll(senders.values(), started.values());
        }
    }

    /** Closes every producer, then every broker, even when one of them fails to close; rethrows the first failure. */
    private static void closeAll(Collection<ClientLoad.SyncSender> senders, Collection<Started> brokers)
            throws Exception {
        Exception first = null;
        List<AutoCloseable> all = new ArrayList<>(senders);
        all.addAll(brokers);
        for (AutoCloseable each : all) {
            try {
                each.close();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /**
     * Medians per run, and each mode's ratio to its broker's plain run of the same cycle: median, lowest, highest, and
     * the geometric mean with its 95% interval; then what the run decides of the switches' targets.
     */
    private static void printTurns(Map<String, List<ClientLoad.Sends>> measured) {
        System.out.printf(Locale.ROOT, "%n| %-16s | %12s | %18s | %16s |%n", "run (medians)", "msg/s",
                "broker us per send", "load us per send");
        System.out.println("|" + "-".repeat(18) + "|" + "-".repeat(14) + "|" + "-".repeat(20) + "|" + "-".repeat(18)
                + "|");
        measured.forEach((run, values) -> System.out.printf(Locale.ROOT, "| %-16s | %,12.0f | %18.1f | %16.1f |%n",
                run, median(values.stream().mapToDouble(ClientLoad.Sends::perSecond).toArray()),
                median(values.stream().mapToDouble(v -> v.brokerCpuNanosPer() / 1000).toArray()),
                median(values.stream().mapToDouble(v -> v.clientCpuNanosPer() / 1000).toArray())));
        System.out.printf(Locale.ROOT, "%n| %-22s | %-30s | %-28s | %-30s |%n", "per cycle",
                "throughput ratio: median (range)", "geometric mean [95% interval]",
                "broker CPU ratio: median (range)");
        System.out.println("|" + "-".repeat(24) + "|" + "-".repeat(32) + "|" + "-".repeat(30) + "|" + "-".repeat(32)
                + "|");
        Map<String, double[]> throughputRatios = new LinkedHashMap<>();
        for (String broker : List.of("ferry", "apache")) {
            List<String[]> pairs = new ArrayList<>();
            MODES.subList(1, MODES.size()).forEach(m -> pairs.add(new String[] {m, "plain"}));
            pairs.add(new String[] {"acl", "signed"}); // the broker's check alone, as the rounds' table shows it
            for (String[] pair : pairs) {
                List<ClientLoad.Sends> over = measured.get(broker + ":" + pair[0]);
                List<ClientLoad.Sends> base = measured.get(broker + ":" + pair[1]);
                if (over == null || base == null) {
                    continue;
                }
                double[] rates = new double[over.size()];
                double[] cpus = new double[over.size()];
                for (int i = 0; i < rates.length; i++) {
                    rates[i] = over.get(i).perSecond() / base.get(i).perSecond();
                    cpus[i] = over.get(i).brokerCpuNanosPer() / base.get(i).brokerCpuNanosPer();
                }
                String name = broker + " " + pair[0] + " / " + pair[1];
                throughputRatios.put(name, rates);
                System.out.printf(Locale.ROOT, "| %-22s | %-30s | %-28s | %-30s |%n", name, spread(rates),
                        RatioInterval.of(rates), spread(cpus));
            }
        }
        printTargets(throughputRatios);
    }

    /**
     * The security switches' targets, each decided only when its whole 95% interval lies on one side: ACL costs at
     * most 10% of throughput, TLS at most 30%, and each costs Ferry no more than Apache (Ferry's ratio over Apache's,
     * cycle by cycle, at least 1).
     */
    private static void printTargets(Map<String, double[]> ratios) {
        System.out.println();
        for (String[] target : List.of(new String[] {"acl", "0.90"}, new String[] {"tls", "0.70"})) {
            double[] ferry = ratios.get("ferry " + target[0] + " / plain");
            double[] apache = ratios.get("apache " + target[0] + " / plain");
            if (ferry != null) {
                double floor = Double.parseDouble(target[1]);
                System.out.printf(Locale.ROOT, "  %s costs Ferry at most %.0f%% of throughput: %s (%s)%n", target[0],
                        100 * (1 - floor), RatioInterval.of(ferry).atLeast(floor), RatioInterval.of(ferry));
            }
            if (ferry != null && apache != null) {
                RatioInterval relative = RatioInterval.of(RatioInterval.quotients(ferry, apache));
                System.out.printf(Locale.ROOT, "  %s costs Ferry no more than Apache: %s (Ferry's ratio / Apache's"
                        + " %s)%n", target[0], relative.atLeast(1.0), relative);
            }
        }
    }

    private static String spread(double[] values) {
        double[] sorted = sorted(values);
        return String.format(Locale.ROOT, "%.3f (%.3f-%.3f)", middleOf(sorted), sorted[0], sorted[sorted.length - 1]);
    }

    private static double median(double[] values) {
        return middleOf(sorted(values));
    }

    private static double[] sorted(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted;
    }

    private static double middleOf(double[] sorted) {
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /** One figure's means per broker and mode, and the mode / plain ratios. */
    private static void print(Map<String, List<double[]>> measured, int figure, String title, String format) {
        Map<String, Double> mean = new LinkedHashMap<>();
        measured.forEach((run, values) -> mean.put(run, values.stream().mapToDouble(v -> v[figure])
                .average().orElse(Double.NaN)));
        System.out.printf(Locale.ROOT, "%n| %-36s | %12s | %12s |%n", title, "Ferry", "Apache");
        System.out.println("|" + "-".repeat(38) + "|" + "-".repeat(14) + "|" + "-".repeat(14) + "|");
        for (String m : MODES) {
            System.out.printf(Locale.ROOT, "| %-36s | " + format + " | " + format + " |%n", m,
                    mean.getOrDefault("ferry:" + m, Double.NaN), mean.getOrDefault("apache:" + m, Double.NaN));
        }
        for (String m : MODES.subList(1, MODES.size())) {
            System.out.printf(Locale.ROOT, "| %-36s | %12.3f | %12.3f |%n", m + " / plain",
                    mean.getOrDefault("ferry:" + m, Double.NaN) / mean.getOrDefault("ferry:plain", Double.NaN),
                    mean.getOrDefault("apache:" + m, Double.NaN) / mean.getOrDefault("apache:plain", Double.NaN));
        }
        System.out.printf(Locale.ROOT, "| %-36s | %12.3f | %12.3f |%n", "acl / signed (the broker's check)",
                mean.getOrDefault("ferry:acl", Double.NaN) / mean.getOrDefault("ferry:signed", Double.NaN),
                mean.getOrDefault("apache:acl", Double.NaN) / mean.getOrDefault("apache:signed", Double.NaN));
    }

    /** Throughput and broker CPU per send of one measurement in a JVM of its own. */
    private double[] inFreshJvm(String broker, String runMode, String name) throws Exception {
        Path results = workDir.resolve(name + ".result");
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                FeatureOverhead.class.getName(), "--only=" + broker, "--mode=" + runMode,
                "--results-file=" + results, "--work-dir=" + workDir, "--heap=" + heap,
                "--segment-mib=" + segmentMib, "--duration-s=" + durationSeconds, "--warmup-s=" + warmupSeconds,
                "--client=" + client));
        brokerJvmArgs.forEach(arg -> command.add("--broker-jvm-arg=" + arg));
        Process process = new ProcessBuilder(command).inheritIO().start();
        if (process.waitFor() != 0 || !Files.exists(results)) {
            throw new IllegalStateException("the measurement of " + name + " failed (exit " + process.exitValue()
                    + ")");
        }
        SideBySide.deleteRecursively(workDir.resolve(broker + "-" + runMode));
        List<String> lines = Files.readAllLines(results);
        return new double[] {Double.parseDouble(lines.get(0)), Double.parseDouble(lines.get(1))};
    }

    /** One broker in one mode: its sync sends with the Apache client. */
    private ClientLoad.Sends measure(String broker, String runMode) throws Exception {
        try (Started started = start(broker, runMode)) {
            ClientLoad.Sends sends = client.equals("ferry")
                    ? ferrySends(started)
                    : started.load.syncSend(16, 1024, Duration.ofSeconds(warmupSeconds),
                            Duration.ofSeconds(durationSeconds), started.server::cpuNanos);
            System.out.printf(Locale.ROOT, "  %s %s: %,.0f msg/s, broker %.1f us per send%n", broker, runMode,
                    sends.perSecond(), sends.brokerCpuNanosPer() / 1000);
            return sends;
        }
    }

    /**
     * A broker started in a mode, ready for sends: its user and policy created when ACL is on, and the Apache-client
     * load that signs and encrypts as the mode says.
     */
    private record Started(ServerProcess server, Scraper scraper, ClientLoad load, String prefix, boolean signed,
                           boolean tls, Path cert) implements AutoCloseable {
        @Override
        public void close() {
            try {
                scraper.close();
            } finally {
                server.close();
            }
        }
    }

    private Started start(String broker, String runMode) throws Exception {
        int[] ports = SideBySide.freePorts();
        Path dir = workDir.resolve(broker + "-" + runMode);
        SideBySide.deleteRecursively(dir);
        Files.createDirectories(dir);
        Path cert = workDir.resolve("tls").resolve("broker.crt.pem");
        Path key = workDir.resolve("tls").resolve("broker.key.pem");
        boolean acl = runMode.equals("acl");
        boolean signed = acl || runMode.equals("signed");
        boolean tls = runMode.equals("tls");
        boolean metrics = runMode.equals("metrics");
        int metricsPort = broker.equals("ferry") ? ports[2] : anyFreePort(); // Apache's HA port is ports[2]
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-Xms" + heap, "-Xmx" + heap));
        brokerJvmArgs.forEach(arg -> command.add(arg.replace("{run}", broker + "-" + runMode)));
        if (broker.equals("ferry")) {
            StringBuilder config = new StringBuilder("commitLogSegmentSize=" + segmentMib * 1024 * 1024 + "\n");
            if (acl) {
                config.append("authenticationEnabled=true\nauthorizationEnabled=true\n")
                        .append("initAuthenticationUser={\"username\":\"").append(SUPER_USER)
                        .append("\",\"password\":\"").append(SUPER_PASSWORD).append("\"}\n");
            }
            if (tls) {
                config.append("tlsMode=enforcing\ntlsCertPath=").append(cert).append("\ntlsKeyPath=").append(key)
                        .append('\n');
            }
            if (metrics) {
                config.append("metricsExporterType=PROM\nmetricsPromExporterHost=127.0.0.1\nmetricsPromExporterPort=")
                        .append(metricsPort).append('\n');
            }
            Path file = dir.resolve("ferry.properties");
            Files.writeString(file, config, StandardCharsets.UTF_8);
            command.addAll(List.of("-cp", System.getProperty("java.class.path"),
                    "dev.ferry.server.cli.FerryServerCommand", "--namesrv-port", ports[0] + "", "--broker-port",
                    ports[1] + "", "--store-dir", dir.resolve("store").toString(), "--config", file.toString()));
        } else {
            command.add("-Duser.home=" + dir);
            if (tls) {
                command.addAll(List.of("-Dtls.server.mode=enforcing", "-Dtls.test.mode.enable=false",
                        "-Dtls.enable=true", "-Dtls.server.certPath=" + cert, "-Dtls.server.keyPath=" + key));
            }
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), ApachePeerMain.class.getName(),
                    ports[0] + "", ports[1] + "", ports[2] + "", dir.toString(),
                    Integer.toString(segmentMib * 1024 * 1024), "ASYNC_FLUSH"));
            if (metrics) {
                command.add("--metrics-port=" + metricsPort);
            }
            if (acl) {
                command.addAll(List.of(SUPER_USER, SUPER_PASSWORD));
            }
        }
        String nameServer = "127.0.0.1:" + ports[0];
        String prefix = "S" + broker + runMode;
        ServerProcess server = ServerProcess.start(broker + "-" + runMode, nameServer, command, dir);
        Scraper scraper = Scraper.NONE;
        try {
            scraper = metrics ? Scraper.every(SCRAPE_INTERVAL, metricsPort) : Scraper.NONE;
            RPCHook admin = acl ? new AclClientRPCHook(new SessionCredentials(SUPER_USER, SUPER_PASSWORD)) : null;
            new ClientLoad(nameServer, prefix, admin, tls).timeToReadyMillis(server);
            if (acl) {
                allowSends("127.0.0.1:" + ports[1], admin, prefix);
            }
            RPCHook signer = signed ? new AclClientRPCHook(new SessionCredentials(USER, PASSWORD)) : null;
            return new Started(server, scraper, new ClientLoad(nameServer, prefix, signer, tls), prefix, signed, tls,
                    cert);
        } catch (Exception | Error e) {
            new Started(server, scraper, null, prefix, signed, tls, cert).close();
            throw e;
        }
    }

    private static int anyFreePort() throws java.io.IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Ferry's client for a started broker, signing and encrypting as its mode says. */
    private static FerryClientLoad ferryLoad(Started started) {
        return new FerryClientLoad(started.server.nameServer, started.prefix, builder -> {
            if (started.signed) {
                builder.credentials(USER, PASSWORD);
            }
            return started.tls ? builder.useTls(started.cert) : builder;
        });
    }

    /** The same sends from Ferry's client, signing and encrypting as the mode says. */
    private ClientLoad.Sends ferrySends(Started started) throws Exception {
        ServerProcess server = started.server;
        try (FerryClientLoad load = ferryLoad(started)) {
            load.syncSend(16, 1024, Duration.ofSeconds(warmupSeconds));
            long cpuBefore = server.cpuNanos();
            double perSecond = load.syncSend(16, 1024, Duration.ofSeconds(durationSeconds));
            long cpu = server.cpuNanos() - cpuBefore;
            return new ClientLoad.Sends(perSecond, cpu / (perSecond * durationSeconds), Double.NaN);
        }
    }

    /** Creates the normal user the load signs as, allowed to send to the load's topics only. */
    private static void allowSends(String brokerAddress, RPCHook admin, String prefix) throws Exception {
        NettyRemotingClient client = new NettyRemotingClient(new NettyClientConfig());
        client.registerRPCHook(admin);
        client.start();
        try {
            CreateUserRequestHeader userHeader = new CreateUserRequestHeader();
            userHeader.setUsername(USER);
            RemotingCommand createUser = RemotingCommand.createRequestCommand(RequestCode.AUTH_CREATE_USER,
                    userHeader);
            UserInfo user = new UserInfo();
            user.setUsername(USER);
            user.setPassword(PASSWORD);
            user.setUserType("Normal");
            createUser.setBody(JSON.writeValueAsBytes(user));
            check(client.invokeSync(brokerAddress, createUser, 5000), "create user");

            CreateAclRequestHeader aclHeader = new CreateAclRequestHeader();
            aclHeader.setSubject("User:" + USER);
            RemotingCommand createAcl = RemotingCommand.createRequestCommand(RequestCode.AUTH_CREATE_ACL, aclHeader);
            AclInfo.PolicyEntryInfo entry = new AclInfo.PolicyEntryInfo();
            entry.setResource("Topic:" + prefix + "*");
            entry.setActions(List.of("Pub"));
            entry.setDecision("Allow");
            AclInfo.PolicyInfo policy = new AclInfo.PolicyInfo();
            policy.setEntries(List.of(entry));
            AclInfo info = new AclInfo();
            info.setSubject("User:" + USER);
            info.setPolicies(List.of(policy));
            createAcl.setBody(JSON.writeValueAsBytes(info));
            check(client.invokeSync(brokerAddress, createAcl, 5000), "create ACL");
        } finally {
            client.shutdown();
        }
    }

    private static void check(RemotingCommand response, String what) {
        if (response.getCode() != ResponseCode.SUCCESS) {
            throw new IllegalStateException(what + " failed: " + response.getCode() + " " + response.getRemark());
        }
    }
}
