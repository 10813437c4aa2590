package dev.ferry.server;

import dev.ferry.remoting.RemotingLimits;
import dev.ferry.server.broker.BrokerLimits;
import dev.ferry.server.broker.DelayLevels;
import dev.ferry.server.namesrv.NameServerConfig;
import dev.ferry.store.FlushMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of a {@link FerryServer}: one name server and one broker in one process. Built with {@link #builder};
 * validated once, with messages that name the bad key and value.
 *
 * @param host                 address both listen on and advertise
 * @param namesrvPort          name server port (9876)
 * @param brokerPort           broker port (10911)
 * @param storeDir             where the broker keeps messages, offsets and topics
 * @param pluginDir            a directory of plugin jars, or {@code null}
 * @param brokerName           the broker's name
 * @param clusterName          its cluster's name
 * @param flushMode            asynchronous (default) or synchronous flush
 * @param commitLogSegmentSize bytes per commit-log file
 * @param autoCreateTopics     whether a first send creates its topic
 * @param sql92Enabled         whether SQL92 subscriptions are served
 * @param delayLevels          the delay levels, RocketMQ's format ({@code 1s 5s 10s ...})
 * @param transactionCheckInterval how often undecided transactions are checked back with producers
 * @param transactionCheckMax  checks of one transaction before it is discarded
 * @param brokerLimits         what clients may make the broker keep, queue and hold
 * @param nameServerMaxTopics  topic routes the name server keeps
 * @param nameServerMaxRegistrationBytes what one compressed registration may inflate to
 * @param remotingLimits       connections, and the memory their requests may hold, of each server
 */
public record FerryServerConfig(String host, int namesrvPort, int brokerPort, Path storeDir, Path pluginDir,
                                String brokerName, String clusterName, FlushMode flushMode, int commitLogSegmentSize,
                                boolean autoCreateTopics, boolean sql92Enabled, DelayLevels delayLevels,
                                Duration transactionCheckInterval, int transactionCheckMax, BrokerLimits brokerLimits,
                                int nameServerMaxTopics, int nameServerMaxRegistrationBytes,
                                RemotingLimits remotingLimits) {

    /** RocketMQ's transactionCheckInterval and transactionCheckMax. */
    public static final Duration DEFAULT_CHECK_INTERVAL = Duration.ofSeconds(30);
    public static final int DEFAULT_CHECK_MAX = 15;

    public FerryServerConfig {
        Objects.requireNonNull(delayLevels, "delayLevels");
        if (transactionCheckInterval == null || transactionCheckInterval.isNegative()
                || transactionCheckInterval.isZero()) {
            throw new IllegalArgumentException("transactionCheckInterval = " + transactionCheckInterval
                    + ": must be a positive duration");
        }
        if (transactionCheckMax <= 0) {
            throw new IllegalArgumentException("transactionCheckMax = " + transactionCheckMax + ": must be positive");
        }
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(storeDir, "storeDir");
        Objects.requireNonNull(flushMode, "flushMode");
        if (commitLogSegmentSize < 64 * 1024) {
            throw new IllegalArgumentException("commitLogSegmentSize = " + commitLogSegmentSize
                    + ": must be at least 65536 bytes");
        }
        Objects.requireNonNull(brokerLimits, "brokerLimits");
        if (nameServerMaxTopics <= 0) {
            throw new IllegalArgumentException("nameServerMaxTopics = " + nameServerMaxTopics + ": must be positive");
        }
        if (nameServerMaxRegistrationBytes <= 0) {
            throw new IllegalArgumentException("nameServerMaxRegistrationBytes = " + nameServerMaxRegistrationBytes
                    + ": must be positive");
        }
        Objects.requireNonNull(remotingLimits, "remotingLimits");
    }

    /** The defaults of {@code ferry-server}: RocketMQ's ports on 127.0.0.1, 1 GiB commit-log files. */
    public static FerryServerConfig defaults(Path storeDir) {
        return builder(storeDir).build();
    }

    public static Builder builder(Path storeDir) {
        return new Builder(storeDir);
    }

    public Builder toBuilder() {
        return new Builder(storeDir).host(host).namesrvPort(namesrvPort).brokerPort(brokerPort).pluginDir(pluginDir)
                .brokerName(brokerName).clusterName(clusterName).flushMode(flushMode)
                .commitLogSegmentSize(commitLogSegmentSize).autoCreateTopics(autoCreateTopics)
                .sql92Enabled(sql92Enabled).delayLevels(delayLevels)
                .transactionChecks(transactionCheckInterval, transactionCheckMax).brokerLimits(brokerLimits)
                .nameServerMaxTopics(nameServerMaxTopics).nameServerMaxRegistrationBytes(nameServerMaxRegistrationBytes)
                .remotingLimits(remotingLimits);
    }

    public FerryServerConfig withPorts(int newNamesrvPort, int newBrokerPort) {
        return toBuilder().namesrvPort(newNamesrvPort).brokerPort(newBrokerPort).build();
    }

    public FerryServerConfig withCommitLogSegmentSize(int bytes) {
        return toBuilder().commitLogSegmentSize(bytes).build();
    }

    public FerryServerConfig withPluginDir(Path dir) {
        return toBuilder().pluginDir(dir).build();
    }

    public FerryServerConfig withDelayLevels(DelayLevels levels) {
        return toBuilder().delayLevels(levels).build();
    }

    public FerryServerConfig withTransactionChecks(Duration interval, int maxChecks) {
        return toBuilder().transactionChecks(interval, maxChecks).build();
    }

    /** Builds a {@link FerryServerConfig}; the defaults are {@code ferry-server}'s. */
    public static final class Builder {
        private final Path storeDir;
        private String host = "127.0.0.1";
        private int namesrvPort = 9876;
        private int brokerPort = 10911;
        private Path pluginDir;
        private String brokerName = "broker-a";
        private String clusterName = "DefaultCluster";
        private FlushMode flushMode = FlushMode.ASYNC_FLUSH;
        private int commitLogSegmentSize = 1024 * 1024 * 1024;
        private boolean autoCreateTopics = true;
        private boolean sql92Enabled = true;
        private DelayLevels delayLevels = DelayLevels.DEFAULT;
        private Duration transactionCheckInterval = DEFAULT_CHECK_INTERVAL;
        private int transactionCheckMax = DEFAULT_CHECK_MAX;
        private BrokerLimits brokerLimits = BrokerLimits.defaults();
        private int nameServerMaxTopics = 1_000_000;
        private int nameServerMaxRegistrationBytes = NameServerConfig.defaultMaxRegistrationBytes();
        private RemotingLimits remotingLimits = RemotingLimits.defaults();

        private Builder(Path storeDir) {
            this.storeDir = storeDir;
        }

        public Builder host(String value) {
            this.host = value;
            return this;
        }

        public Builder namesrvPort(int value) {
            this.namesrvPort = value;
            return this;
        }

        public Builder brokerPort(int value) {
            this.brokerPort = value;
            return this;
        }

        public Builder pluginDir(Path value) {
            this.pluginDir = value;
            return this;
        }

        public Builder brokerName(String value) {
            this.brokerName = value;
            return this;
        }

        public Builder clusterName(String value) {
            this.clusterName = value;
            return this;
        }

        public Builder flushMode(FlushMode value) {
            this.flushMode = value;
            return this;
        }

        public Builder commitLogSegmentSize(int value) {
            this.commitLogSegmentSize = value;
            return this;
        }

        public Builder autoCreateTopics(boolean value) {
            this.autoCreateTopics = value;
            return this;
        }

        public Builder sql92Enabled(boolean value) {
            this.sql92Enabled = value;
            return this;
        }

        public Builder delayLevels(DelayLevels value) {
            this.delayLevels = value;
            return this;
        }

        public Builder transactionChecks(Duration interval, int maxChecks) {
            this.transactionCheckInterval = interval;
            this.transactionCheckMax = maxChecks;
            return this;
        }

        public Builder brokerLimits(BrokerLimits value) {
            this.brokerLimits = value;
            return this;
        }

        public Builder nameServerMaxTopics(int value) {
            this.nameServerMaxTopics = value;
            return this;
        }

        public Builder nameServerMaxRegistrationBytes(int value) {
            this.nameServerMaxRegistrationBytes = value;
            return this;
        }

        public Builder remotingLimits(RemotingLimits value) {
            this.remotingLimits = value;
            return this;
        }

        public FerryServerConfig build() {
            return new FerryServerConfig(host, namesrvPort, brokerPort, storeDir, pluginDir, brokerName, clusterName,
                    flushMode, commitLogSegmentSize, autoCreateTopics, sql92Enabled, delayLevels,
                    transactionCheckInterval, transactionCheckMax, brokerLimits, nameServerMaxTopics,
                    nameServerMaxRegistrationBytes, remotingLimits);
        }
    }
}
