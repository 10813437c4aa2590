package dev.ferry.server;

import dev.ferry.server.broker.DelayLevels;
import dev.ferry.store.FlushMode;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code java -jar ferry-server.jar}: runs a name server and a broker until SIGTERM, then
 * stops them cleanly (flushes, persists offsets). Flags override the {@code --config} file.
 * {@code ferry-server admin ...} instead asks a running broker for its counters ({@link AdminCommand}).
 */
@Command(name = "ferry-server", mixinStandardHelpOptions = true, version = "Ferry 0.1.0",
        description = "Runs a RocketMQ-compatible name server and broker in one process "
                + "(or, with 'admin', shows a running one's counters).",
        subcommands = AdminCommand.class)
public final class FerryServerCommand implements Callable<Integer> {
    private static final Set<String> CONFIG_KEYS = Set.of("host", "namesrvPort", "brokerPort", "storeDir",
            "pluginDir", "brokerName", "clusterName", "flushMode", "commitLogSegmentSize", "autoCreateTopics",
            "sql92Enabled", "delayLevels", "transactionCheckInterval", "transactionCheckMax");

    @Option(names = "--host", description = "Address to listen on and advertise (default 127.0.0.1).")
    String host;

    @Option(names = "--namesrv-port", description = "Name server port (default 9876).")
    Integer namesrvPort;

    @Option(names = "--broker-port", description = "Broker port (default 10911).")
    Integer brokerPort;

    @Option(names = "--store-dir", description = "Directory of messages, offsets and topics (default ./ferry-store).")
    Path storeDir;

    @Option(names = "--plugin-dir", description = "Directory of plugin jars (filters, strategies).")
    Path pluginDir;

    @Option(names = "--config", description = "A properties file with any of: ${sys:line.separator}"
            + "host, namesrvPort, brokerPort, storeDir, pluginDir, brokerName, clusterName, flushMode "
            + "(ASYNC_FLUSH|SYNC_FLUSH), commitLogSegmentSize, autoCreateTopics, sql92Enabled, delayLevels "
            + "(\"1s 5s 10s ...\"), transactionCheckInterval (30s), transactionCheckMax (15).")
    Path configFile;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private final CountDownLatch stopped = new CountDownLatch(1);

    public static void main(String[] args) {
        System.exit(new CommandLine(new FerryServerCommand()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        FerryServerConfig config = config();
        long started = System.nanoTime();
        FerryServer server = new FerryServer(config, Clock.systemUTC(), new DefaultThreadFactory("ferry", true))
                .start();
        PrintWriter out = new PrintWriter(System.out, true);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
                out.println("Ferry server stopped cleanly");
            } catch (RuntimeException e) {
                out.println("Ferry server stopped with an error: " + e);
                e.printStackTrace(out);
            }
            stopped.countDown();
        }, "ferry-shutdown"));
        out.printf("Ferry server ready: name server %s:%d, broker %s:%d, store %s (%d ms)%n", config.host(),
                server.namesrvPort(), config.host(), server.brokerPort(), config.storeDir().toAbsolutePath(),
                (System.nanoTime() - started) / 1_000_000);
        stopped.await();
        return 0;
    }

    /** Defaults, then the config file, then flags. */
    FerryServerConfig config() throws IOException {
        Properties file = new Properties();
        if (configFile != null) {
            try (InputStream in = Files.newInputStream(configFile)) {
                file.load(in);
            }
            for (String key : file.stringPropertyNames()) {
                if (!CONFIG_KEYS.contains(key)) {
                    throw new CommandLine.ParameterException(spec.commandLine(), "unknown key '" + key + "' in "
                            + configFile + "; known keys: " + new java.util.TreeSet<>(CONFIG_KEYS));
                }
            }
        }
        Path store = storeDir != null ? storeDir : Path.of(file.getProperty("storeDir", "ferry-store"));
        Path plugins = pluginDir != null ? pluginDir
                : file.getProperty("pluginDir") == null ? null : Path.of(file.getProperty("pluginDir"));
        return new FerryServerConfig(
                host != null ? host : file.getProperty("host", "127.0.0.1"),
                namesrvPort != null ? namesrvPort : intValue(file, "namesrvPort", 9876),
                brokerPort != null ? brokerPort : intValue(file, "brokerPort", 10911),
                store, plugins,
                file.getProperty("brokerName", "broker-a"),
                file.getProperty("clusterName", "DefaultCluster"),
                flushMode(file.getProperty("flushMode", "ASYNC_FLUSH")),
                intValue(file, "commitLogSegmentSize", 1024 * 1024 * 1024),
                Boolean.parseBoolean(file.getProperty("autoCreateTopics", "true")),
                Boolean.parseBoolean(file.getProperty("sql92Enabled", "true")),
                delayLevels(file.getProperty("delayLevels")),
                duration(file.getProperty("transactionCheckInterval")),
                intValue(file, "transactionCheckMax", FerryServerConfig.DEFAULT_CHECK_MAX));
    }

    private DelayLevels delayLevels(String value) {
        try {
            return value == null ? DelayLevels.DEFAULT : DelayLevels.parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    private Duration duration(String value) {
        if (value == null) {
            return FerryServerConfig.DEFAULT_CHECK_INTERVAL;
        }
        try {
            return DelayLevels.parseDuration(value, "transactionCheckInterval");
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    private int intValue(Properties file, String key, int fallback) {
        String value = file.getProperty(key);
        if (value == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), key + " = " + value + ": not an integer");
        }
    }

    private FlushMode flushMode(String value) {
        try {
            return FlushMode.valueOf(value.trim());
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "flushMode = " + value
                    + ": expected ASYNC_FLUSH or SYNC_FLUSH");
        }
    }
}
