package dev.ferry.server.cli;

import dev.ferry.remoting.FileErrors;
import dev.ferry.server.FerryServerConfig;
import dev.ferry.server.FerryServerProperties;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Consumer;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The options every server role takes: where it listens, where it keeps its files, TLS, and a {@code --config}
 * properties file whose keys the flags override.
 */
final class ServerOptions {
    @Option(names = "--host", description = "Address to listen on and advertise (default 127.0.0.1).")
    String host;

    @Option(names = "--store-dir", description = "Directory of messages, offsets, topics, users (default "
            + "./ferry-store).")
    Path storeDir;

    @Option(names = "--tls-mode", description = "disabled (default), permissive (TLS and plain) or enforcing "
            + "(TLS only).")
    String tlsMode;

    @Option(names = "--tls-cert-path", description = "PEM certificate (chain) the server presents.")
    String tlsCertPath;

    @Option(names = "--tls-key-path", description = "Its private key: unencrypted PKCS#8 PEM.")
    String tlsKeyPath;

    @Option(names = "--tls-trust-cert-path", description = "PEM certificates client certificates must chain to.")
    String tlsTrustCertPath;

    @Option(names = "--tls-need-client-auth", description = "Require a client certificate (mutual TLS).")
    Boolean tlsNeedClientAuth;

    @Option(names = "--verbose", description = "When the server cannot start, print the stack trace after the "
            + "line that says why.")
    boolean verbose;

    @Option(names = "--config", description = "A properties file with any of: ${sys:line.separator}"
            + "host (or brokerIP1), namesrvPort, brokerPort, listenPort, storeDir (or storePathRootDir), "
            + "storePathCommitLog, pluginDir, namesrvAddr, brokerName, brokerId, "
            + "clusterName (or brokerClusterName), brokerRole, haListenPort, registerNameServerPeriod (ms), "
            + "slaveSyncInterval, flushMode (or flushDiskType: ASYNC_FLUSH|SYNC_FLUSH), "
            + "commitLogSegmentSize (or mappedFileSizeCommitLog), fileReservedTime (h), diskMaxUsedSpaceRatio (%%), "
            + "autoCreateTopics (or autoCreateTopicEnable), sql92Enabled, "
            + "delayLevels (or messageDelayLevel: \"1s 5s 10s ...\"), "
            + "transactionCheckInterval (30s), transactionCheckMax (15), the limits (maxTopics, sendQueueCapacity, "
            + "maxConnections, ...: see docs/operations.md), authenticationEnabled, authorizationEnabled, "
            + "initAuthenticationUser, innerClientAuthenticationCredentials, tlsMode, tlsCertPath, tlsKeyPath, "
            + "tlsTrustCertPath, tlsNeedClientAuth (see docs/security.md), metricsExporterType, "
            + "metricsPromExporterHost, metricsPromExporterPort and the metrics endpoint's bounds "
            + "(metricsHeaderTimeout, metricsIdleTimeout, metricsMaxConnections, metricsMaxHeaderBytes, "
            + "metricsScrapeThreads: see docs/operations.md). An Apache broker's config file runs as is: "
            + "docs/operations.md lists what Ferry does with each of its keys.")
    Path configFile;

    /**
     * Defaults, then the config file, then the flags ({@code flags} sets the role's own), for a process of
     * {@code role}.
     *
     * @throws CommandLine.ParameterException naming the file, the key and the rule of a bad value
     * @throws IllegalArgumentException when the config file cannot be read, naming it
     */
    FerryServerConfig config(CommandLine.Model.CommandSpec spec, FerryServerConfig.Role role,
                             Consumer<FerryServerConfig.Builder> flags) {
        Properties file = new Properties();
        if (configFile != null) {
            try (InputStream in = Files.newInputStream(configFile)) {
                file.load(in);
            } catch (IOException e) {
                throw new IllegalArgumentException("--config: cannot read " + configFile + " ("
                        + FileErrors.reason(e) + ")", e);
            }
        }
        putIfGiven(file, "tlsMode", tlsMode);
        putIfGiven(file, "tlsCertPath", tlsCertPath);
        putIfGiven(file, "tlsKeyPath", tlsKeyPath);
        putIfGiven(file, "tlsTrustCertPath", tlsTrustCertPath);
        putIfGiven(file, "tlsNeedClientAuth", tlsNeedClientAuth == null ? null : tlsNeedClientAuth.toString());
        try {
            Optional<Path> fromFile = FerryServerProperties.removeStoreDir(file);
            Path store = storeDir != null ? storeDir : fromFile.orElse(Path.of("ferry-store"));
            FerryServerConfig.Builder builder = FerryServerProperties.apply(
                    FerryServerConfig.builder(store).role(role), file);
            if (host != null) {
                builder.host(host);
            }
            flags.accept(builder);
            return builder.build();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), (configFile == null ? "" : configFile + ": ")
                    + e.getMessage());
        }
    }

    private static void putIfGiven(Properties properties, String key, String value) {
        if (value != null) {
            properties.setProperty(key, value);
        }
    }
}
