package dev.ferry.server;

import dev.ferry.store.FlushMode;
import java.nio.file.Path;
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
 */
public record FerryServerConfig(String host, int namesrvPort, int brokerPort, Path storeDir, Path pluginDir,
                                String brokerName, String clusterName, FlushMode flushMode, int commitLogSegmentSize,
                                boolean autoCreateTopics, boolean sql92Enabled) {

    public FerryServerConfig {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(storeDir, "storeDir");
        Objects.requireNonNull(flushMode, "flushMode");
        if (commitLogSegmentSize < 64 * 1024) {
            throw new IllegalArgumentException("commitLogSegmentSize = " + commitLogSegmentSize
                    + ": must be at least 65536 bytes");
        }
    }

    /** The defaults of {@code ferry-server}: RocketMQ's ports on 127.0.0.1, 1 GiB commit-log files. */
    public static FerryServerConfig defaults(Path storeDir) {
        return new FerryServerConfig("127.0.0.1", 9876, 10911, storeDir, null, "broker-a", "DefaultCluster",
                FlushMode.ASYNC_FLUSH, 1024 * 1024 * 1024, true, true);
    }

    public FerryServerConfig withPorts(int newNamesrvPort, int newBrokerPort) {
        return new FerryServerConfig(host, newNamesrvPort, newBrokerPort, storeDir, pluginDir, brokerName, clusterName,
                flushMode, commitLogSegmentSize, autoCreateTopics, sql92Enabled);
    }

    public FerryServerConfig withCommitLogSegmentSize(int bytes) {
        return new FerryServerConfig(host, namesrvPort, brokerPort, storeDir, pluginDir, brokerName, clusterName,
                flushMode, bytes, autoCreateTopics, sql92Enabled);
    }

    public FerryServerConfig withPluginDir(Path dir) {
        return new FerryServerConfig(host, namesrvPort, brokerPort, storeDir, dir, brokerName, clusterName, flushMode,
                commitLogSegmentSize, autoCreateTopics, sql92Enabled);
    }
}
