package dev.ferry.server;

import dev.ferry.remoting.RemotingLimits;
import dev.ferry.remoting.RemotingServerConfig;
import dev.ferry.server.broker.Broker;
import dev.ferry.server.broker.BrokerConfig;
import dev.ferry.server.namesrv.NameServer;
import dev.ferry.server.namesrv.NameServerConfig;
import dev.ferry.store.StoreConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.stream.Stream;

/**
 * A name server and a broker in one process, as {@code ferry-server} and the resource
 * adapter's embedded mode run them. The name server starts first, so the broker's first
 * registration makes routes answerable by the time {@link #start()} returns.
 */
public final class FerryServer implements AutoCloseable {
    /**
     * RocketMQ asks about a transaction 6 s after its half message at the earliest; a shorter check
     * interval shortens that too, so a producer's local transaction gets at most one interval.
     */
    private static final Duration TRANSACTION_TIMEOUT = Duration.ofSeconds(6);

    private final FerryServerConfig config;
    private final NameServer nameServer;
    private final Broker broker;
    private final URLClassLoader pluginLoader;

    public FerryServer(FerryServerConfig config, Clock clock, ThreadFactory threadFactory) {
        this.config = config;
        this.pluginLoader = pluginLoader(config.pluginDir());
        this.nameServer = new NameServer(NameServerConfig.builder().host(config.host()).port(config.namesrvPort())
                .maxTopics(config.nameServerMaxTopics()).maxRegistrationBytes(config.nameServerMaxRegistrationBytes())
                .remotingLimits(nameServerLimits(config.remotingLimits())).build(), clock,
                threadFactory);
        this.nameServer.start();
        Broker created = null;
        try {
            BrokerConfig brokerConfig = BrokerConfig.builder(config.storeDir()).host(config.host())
                    .port(config.brokerPort()).brokerName(config.brokerName()).clusterName(config.clusterName())
                    .nameServers(List.of(config.host() + ":" + nameServer.port()))
                    .autoCreateTopics(config.autoCreateTopics()).sql92Enabled(config.sql92Enabled())
                    .delayLevels(config.delayLevels()).transactionCheckInterval(config.transactionCheckInterval())
                    .transactionTimeout(min(config.transactionCheckInterval(), TRANSACTION_TIMEOUT))
                    .transactionCheckMax(config.transactionCheckMax()).limits(config.brokerLimits())
                    .remotingLimits(config.remotingLimits()).build();
            StoreConfig storeConfig = StoreConfig.builder(config.storeDir().resolve("store"))
                    .flushMode(config.flushMode()).commitLogSegmentSize(config.commitLogSegmentSize()).build();
            created = new Broker(brokerConfig, storeConfig, clock, threadFactory,
                    pluginLoader != null ? pluginLoader : FerryServer.class.getClassLoader());
        } catch (RuntimeException e) {
            nameServer.close();
            throw e;
        }
        this.broker = created;
    }

    /**
     * The name server's share: one frame's worth of large frames (registrations), so that with the broker's the
     * process holds little more than the configured budget, which matters when it is an application server's heap.
     */
    private static RemotingLimits nameServerLimits(RemotingLimits limits) {
        long oneFrame = RemotingServerConfig.DEFAULT_MAX_FRAME_LENGTH;
        return new RemotingLimits(limits.maxConnections(), oneFrame, oneFrame, limits.frameTimeout());
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static URLClassLoader pluginLoader(Path dir) {
        if (dir == null) {
            return null;
        }
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("plugin directory " + dir + " does not exist or is not a directory");
        }
        List<URL> jars = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".jar")).sorted().toList()) {
                jars.add(file.toUri().toURL());
            }
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("bad plugin jar path in " + dir, e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list plugin directory " + dir, e);
        }
        return new URLClassLoader("ferry-plugins", jars.toArray(URL[]::new), FerryServer.class.getClassLoader());
    }

    /** Starts the broker (the name server is already listening). */
    public FerryServer start() {
        broker.start();
        return this;
    }

    /** The settings it runs with. */
    public FerryServerConfig config() {
        return config;
    }

    public int namesrvPort() {
        return nameServer.port();
    }

    public int brokerPort() {
        return broker.port();
    }

    /** {@code host:port} of the name server, as clients configure it. */
    public String nameServerAddress() {
        return config.host() + ":" + nameServer.port();
    }

    public Broker broker() {
        return broker;
    }

    public NameServer nameServer() {
        return nameServer;
    }

    @Override
    public void close() {
        try {
            broker.close();
        } finally {
            nameServer.close();
            if (pluginLoader != null) {
                try {
                    pluginLoader.close();
                } catch (IOException e) {
                    // nothing left to do with a plugin loader that will not close
                }
            }
        }
    }
}
