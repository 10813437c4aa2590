package dev.ferry.ra;

import dev.ferry.format.SystemTopics;
import dev.ferry.remoting.Credentials;
import dev.ferry.remoting.TlsConfig;
import dev.ferry.server.embedded.EmbeddedEngine;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;

/**
 * The resource adapter's settings, validated once when it starts: {@code AdapterConfigReader} reads the adapter's
 * JavaBean properties into a {@link #builder builder}.
 *
 * @param mode whether the adapter runs the engine itself or uses a remote cluster
 * @param nameServer remote mode: the name servers, {@code host:port;host:port}; embedded mode: those its broker
 *     registers with instead of a name server of its own (several application servers as one cluster)
 * @param host embedded mode: the address the name server and broker listen on and advertise
 * @param namesrvPort embedded mode: the name server's port, 0 for any free port
 * @param brokerPort embedded mode: the broker's port, 0 for any free port
 * @param storeDir embedded mode: where the broker keeps messages, offsets and topics; in both modes the
 *     parent of {@code consumer-offsets}, where broadcasting consumers keep theirs
 * @param pluginDir a directory of plugin jars, if any: allocation strategies, offset stores and filters of every
 *     activation and connection factory, and in embedded mode the broker's filters too
 * @param commitLogSegmentSize embedded mode: bytes per commit-log file (the adapter's default is 128 MiB); a store keeps
 *     the size it was made with
 * @param messageDelayLevel embedded mode: the broker's delay levels (delayed sends and retries); this and the next
 *     three are the engine's defaults when {@code null}
 * @param flushMode embedded mode: ASYNC_FLUSH, or SYNC_FLUSH to acknowledge a send once it is on disk
 * @param brokerName embedded mode: the broker's name
 * @param clusterName embedded mode: its cluster's name
 * @param autoCreateTopics embedded mode: whether a first send creates its topic
 * @param brokerId embedded mode: the broker's id in its broker group (0 for a master)
 * @param threadPlacement where the adapter's threads run: dedicated threads each started by a work of the
 *     server's WorkManager, or the WorkManager's own threads
 * @param engineSettings embedded mode: more of the engine's settings (limits, ...), as ferry-server's
 *     {@code --config} keys, read from the adapter's {@code engineConfig} file and its security properties
 * @param credentials what the adapter's clients sign their requests with unless a connection factory or an
 *     activation has its own: the adapter's {@code accessKey}/{@code secretKey} (without them, in embedded mode
 *     with authentication on, the engine's own credentials)
 * @param clientTls remote mode: how the adapter's clients connect ({@code useTls}); in embedded mode they connect
 *     as the engine says (TLS trusting its certificate when its ports speak TLS)
 */
public record AdapterConfig(Mode mode, Optional<String> nameServer, String host, int namesrvPort, int brokerPort,
                            Path storeDir, Optional<Path> pluginDir, int commitLogSegmentSize,
                            String messageDelayLevel, String flushMode, String brokerName, String clusterName,
                            boolean autoCreateTopics, long brokerId,
                            WorkManagerThreadFactory.Placement threadPlacement,
                            Properties engineSettings, Optional<Credentials> credentials,
                            TlsConfig clientTls) {

    /** Where the engine runs. */
    public enum Mode {
        /** The adapter starts a name server and a broker in the application server. */
        EMBEDDED,
        /** The adapter connects to name servers running elsewhere (Ferry or Apache RocketMQ). */
        REMOTE;

        static Mode parse(String value) {
            return Mode.valueOf(value.trim().toUpperCase(Locale.ROOT));
        }
    }

    public AdapterConfig {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(nameServer, "nameServer");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(storeDir, "storeDir");
        Objects.requireNonNull(pluginDir, "pluginDir");
        Objects.requireNonNull(threadPlacement, "threadPlacement");
        Properties copy = new Properties();
        copy.putAll(Objects.requireNonNull(engineSettings, "engineSettings"));
        engineSettings = copy;
        Objects.requireNonNull(credentials, "credentials");
        Objects.requireNonNull(clientTls, "clientTls");
    }

    /**
     * A builder starting from the adapter's defaults (those its config properties declare): embedded mode on
     * 127.0.0.1:9876 and :10911, 128 MiB commit-log files, ASYNC_FLUSH, broker-a of DefaultCluster, no TLS.
     */
    public static Builder builder(Path storeDir) {
        return new Builder(storeDir);
    }

    /** Builds an {@link AdapterConfig}; not thread-safe. */
    public static final class Builder {
        private Mode mode = Mode.EMBEDDED;
        private Optional<String> nameServer = Optional.empty();
        private String host = "127.0.0.1";
        private int namesrvPort = 9876;
        private int brokerPort = 10911;
        private final Path storeDir;
        private Optional<Path> pluginDir = Optional.empty();
        private int commitLogSegmentSize = 128 * 1024 * 1024;
        private String messageDelayLevel = EmbeddedEngine.DEFAULT_MESSAGE_DELAY_LEVEL;
        private String flushMode = "ASYNC_FLUSH";
        private String brokerName = "broker-a";
        private String clusterName = SystemTopics.DEFAULT_CLUSTER;
        private boolean autoCreateTopics = true;
        private long brokerId;
        private WorkManagerThreadFactory.Placement threadPlacement = WorkManagerThreadFactory.Placement.SPAWNED;
        private Properties engineSettings = new Properties();
        private Optional<Credentials> credentials = Optional.empty();
        private TlsConfig clientTls = TlsConfig.DISABLED;

        private Builder(Path storeDir) {
            this.storeDir = Objects.requireNonNull(storeDir, "storeDir");
        }

        public Builder mode(Mode mode) {
            this.mode = mode;
            return this;
        }

        public Builder nameServer(Optional<String> nameServer) {
            this.nameServer = nameServer;
            return this;
        }

        public Builder host(String host) {
            this.host = host;
            return this;
        }

        public Builder namesrvPort(int namesrvPort) {
            this.namesrvPort = namesrvPort;
            return this;
        }

        public Builder brokerPort(int brokerPort) {
            this.brokerPort = brokerPort;
            return this;
        }

        public Builder pluginDir(Optional<Path> pluginDir) {
            this.pluginDir = pluginDir;
            return this;
        }

        public Builder commitLogSegmentSize(int commitLogSegmentSize) {
            this.commitLogSegmentSize = commitLogSegmentSize;
            return this;
        }

        public Builder messageDelayLevel(String messageDelayLevel) {
            this.messageDelayLevel = messageDelayLevel;
            return this;
        }

        public Builder flushMode(String flushMode) {
            this.flushMode = flushMode;
            return this;
        }

        public Builder brokerName(String brokerName) {
            this.brokerName = brokerName;
            return this;
        }

        public Builder clusterName(String clusterName) {
            this.clusterName = clusterName;
            return this;
        }

        public Builder autoCreateTopics(boolean autoCreateTopics) {
            this.autoCreateTopics = autoCreateTopics;
            return this;
        }

        public Builder brokerId(long brokerId) {
            this.brokerId = brokerId;
            return this;
        }

        public Builder threadPlacement(WorkManagerThreadFactory.Placement threadPlacement) {
            this.threadPlacement = threadPlacement;
            return this;
        }

        public Builder engineSettings(Properties engineSettings) {
            this.engineSettings = engineSettings;
            return this;
        }

        public Builder credentials(Optional<Credentials> credentials) {
            this.credentials = credentials;
            return this;
        }

        public Builder clientTls(TlsConfig clientTls) {
            this.clientTls = clientTls;
            return this;
        }

        public AdapterConfig build() {
            return new AdapterConfig(mode, nameServer, host, namesrvPort, brokerPort, storeDir, pluginDir,
                    commitLogSegmentSize, messageDelayLevel, flushMode, brokerName, clusterName, autoCreateTopics,
                    brokerId, threadPlacement, engineSettings, credentials, clientTls);
        }
    }

    /** The settings without their values' secrets: the engine settings by key only, credentials without secret. */
    @Override
    public String toString() {
        return "AdapterConfig[mode=" + mode + ", nameServer=" + nameServer.orElse("-") + ", host=" + host
                + ", namesrvPort=" + namesrvPort + ", brokerPort=" + brokerPort + ", storeDir=" + storeDir
                + ", pluginDir=" + pluginDir.map(Path::toString).orElse("-") + ", engineSettings="
                + new java.util.TreeSet<>(engineSettings.stringPropertyNames()) + ", credentials="
                + credentials.map(Credentials::toString).orElse("-") + ", clientTls=" + clientTls.mode() + "]";
    }

    /** The embedded engine's settings, the adapter's own first, then the engine config file's. */
    public EmbeddedEngine.Settings engine() {
        EmbeddedEngine.Settings settings = EmbeddedEngine.settings(storeDir).host(host).namesrvPort(namesrvPort)
                .brokerPort(brokerPort)
                .pluginDir(pluginDir.orElse(null)).commitLogSegmentSize(commitLogSegmentSize)
                .messageDelayLevel(messageDelayLevel).flushMode(flushMode).brokerName(brokerName)
                .clusterName(clusterName).autoCreateTopics(autoCreateTopics).engineConfig(engineSettings);
        if (mode == Mode.EMBEDDED) {
            nameServer.ifPresent(settings::nameServer);
            settings.brokerId(brokerId);
        }
        return settings;
    }

    /** Where broadcasting consumers keep their offsets. */
    public Path localOffsetDirectory() {
        return storeDir.resolve("consumer-offsets");
    }
}
