package dev.ferry.server.cli;

import dev.ferry.server.FerryServer;
import dev.ferry.server.FerryServerConfig;
import dev.ferry.server.FerryServerProperties;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Properties;
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

    @Option(names = "--tls-mode", description = "disabled (default), permissive (TLS and plain) or enforcing "
            + "(TLS only), for both ports.")
    String tlsMode;

    @Option(names = "--tls-cert-path", description = "PEM certificate (chain) the servers present.")
    String tlsCertPath;

    @Option(names = "--tls-key-path", description = "Its private key: unencrypted PKCS#8 PEM.")
    String tlsKeyPath;

    @Option(names = "--tls-trust-cert-path", description = "PEM certificates client certificates must chain to.")
    String tlsTrustCertPath;

    @Option(names = "--tls-need-client-auth", description = "Require a client certificate (mutual TLS).")
    Boolean tlsNeedClientAuth;

    @Option(names = "--config", description = "A properties file with any of: ${sys:line.separator}"
            + "host, namesrvPort, brokerPort, storeDir, pluginDir, brokerName, clusterName, flushMode "
            + "(ASYNC_FLUSH|SYNC_FLUSH), commitLogSegmentSize, autoCreateTopics, sql92Enabled, delayLevels "
            + "(\"1s 5s 10s ...\"), transactionCheckInterval (30s), transactionCheckMax (15), and the limits "
            + "(maxTopics, sendQueueCapacity, maxConnections, ...: see docs/operations.md), "
            + "authenticationEnabled, authorizationEnabled, initAuthenticationUser, "
            + "innerClientAuthenticationCredentials, tlsMode, tlsCertPath, tlsKeyPath, tlsTrustCertPath, "
            + "tlsNeedClientAuth (see docs/security.md).")
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
        out.printf("Ferry server ready: name server %s:%d, broker %s:%d, store %s (%d ms)%n",
                config.nameServer().host(), server.namesrvPort(), config.broker().host(), server.brokerPort(),
                config.storeDir().toAbsolutePath(),
                (System.nanoTime() - started) / 1_000_000);
        stopped.await();
        return 0;
    }

    private static void putIfGiven(Properties properties, String key, String value) {
        if (value != null) {
            properties.setProperty(key, value);
        }
    }

    /** Defaults, then the config file, then flags. */
    FerryServerConfig config() throws IOException {
        Properties file = new Properties();
        if (configFile != null) {
            try (InputStream in = Files.newInputStream(configFile)) {
                file.load(in);
            }
        }
        putIfGiven(file, "tlsMode", tlsMode);
        putIfGiven(file, "tlsCertPath", tlsCertPath);
        putIfGiven(file, "tlsKeyPath", tlsKeyPath);
        putIfGiven(file, "tlsTrustCertPath", tlsTrustCertPath);
        putIfGiven(file, "tlsNeedClientAuth", tlsNeedClientAuth == null ? null : tlsNeedClientAuth.toString());
        Path store = storeDir != null ? storeDir : Path.of(file.getProperty("storeDir", "ferry-store"));
        file.remove("storeDir");
        try {
            FerryServerConfig.Builder flags = FerryServerProperties.apply(FerryServerConfig.builder(store), file);
            if (host != null) {
                flags.host(host);
            }
            if (namesrvPort != null) {
                flags.namesrvPort(namesrvPort);
            }
            if (brokerPort != null) {
                flags.brokerPort(brokerPort);
            }
            if (pluginDir != null) {
                flags.pluginDir(pluginDir);
            }
            return flags.build();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), (configFile == null ? "" : configFile + ": ")
                    + e.getMessage());
        }
    }
}
