package dev.ferry.server;

import dev.ferry.store.FlushMode;
import dev.ferry.server.broker.DelayLevels;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of a {@link FerryServer}: one name server and one broker in one process.
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
 */
public record FerryServerConfig(String host, int namesrvPort, int brokerPort, Path storeDir, Path pluginDir,
                                String brokerName, String clusterName, FlushMode flushMode, int commitLogSegmentSize,
                                boolean autoCreateTopics, boolean sql92Enabled, DelayLevels delayLevels,
                                Duration transactionCheckInterval, int transactionCheckMax) {

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
    }

    /** The settings before delay levels and transaction checks were configurable, with their defaults. */
    public FerryServerConfig(String host, int namesrvPort, int brokerPort, Path storeDir, Path pluginDir,
                             String brokerName, String clusterName, FlushMode flushMode, int commitLogSegmentSize,
                             boolean autoCreateTopics, boolean sql92Enabled) {
        this(host, namesrvPort, brokerPort, storeDir, pluginDir, brokerName, clusterName, flushMode,
                commitLogSegmentSize, autoCreateTopics, sql92Enabled, DelayLevels.DEFAULT, DEFAULT_CHECK_INTERVAL,
                DEFAULT_CHECK_MAX);
    }

    /** The defaults of {@code ferry-server}: RocketMQ's ports on 127.0.0.1, 1 GiB commit-log files. */
    public static FerryServerConfig defaults(Path storeDir) {
        return new FerryServerConfig("127.0.0.1", 9876, 10911, storeDir, null, "broker-a", "DefaultCluster",
                FlushMode.ASYNC_FLUSH, 1024 * 1024 * 1024, true, true);
    }

    public FerryServerConfig withPorts(int newNamesrvPort, int newBrokerPort) {
        return new FerryServerConfig(host, newNamesrvPort, newBrokerPort, storeDir, pluginDir, brokerName, clusterName,
                flushMode, commitLogSegmentSize, autoCreateTopics, sql92Enabled, delayLevels,
                transactionCheckInterval, transactionCheckMax);
    }

    public FerryServerConfig withCommitLogSegmentSize(int bytes) {
        return new FerryServerConfig(host, namesrvPort, brokerPort, storeDir, pluginDir, brokerName, clusterName,
                flushMode, bytes, autoCreateTopics, sql92Enabled, delayLevels, transactionCheckInterval,
                transactionCheckMax);
    }

    public FerryServerConfig withPluginDir(Path dir) {
        return new FerryServerConfig(host, namesrvPort, brokerPort, storeDir, dir, brokerName, clusterName, flushMode,
                commitLogSegmentSize, autoCreateTopics, sql92Enabled, delayLevels, transactionCheckInterval,
                transactionCheckMax);
    }

    public FerryServerConfig withDelayLevels(DelayLevels levels) {
        return new FerryServerConfig(host, namesrvPort, brokerPort, storeDir, pluginDir, brokerName, clusterName,
                flushMode, commitLogSegmentSize, autoCreateTopics, sql92Enabled, levels, transactionCheckInterval,
                transactionCheckMax);
    }

    public FerryServerConfig withTransactionChecks(Duration interval, int maxChecks) {
        return new FerryServerConfig(host, namesrvPort, brokerPort, storeDir, pluginDir, brokerName, clusterName,
                flushMode, commitLogSegmentSize, autoCreateTopics, sql92Enabled, delayLevels, interval, maxChecks);
    }
}
