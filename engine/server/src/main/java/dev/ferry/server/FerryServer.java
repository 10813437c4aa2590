package dev.ferry.server;

import dev.ferry.remoting.NettyThreadLocals;
import dev.ferry.server.broker.Broker;
import dev.ferry.server.namesrv.NameServer;
import dev.ferry.spi.PluginJars;
import java.io.IOException;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.ThreadFactory;

/**
 * A name server and a broker in one process, as {@code ferry-server} and the resource
 * adapter's embedded mode run them. The name server starts first, so the broker's first
 * registration makes routes answerable by the time {@link #start()} returns.
 */
public final class FerryServer implements AutoCloseable {
    private final FerryServerConfig config;
    private final NameServer nameServer;
    private final Broker broker;
    private final URLClassLoader pluginLoader;

    public FerryServer(FerryServerConfig config, Clock clock, ThreadFactory threads) {
        ThreadFactory threadFactory = NettyThreadLocals.clearedAfterEachTask(threads);
        this.pluginLoader = pluginLoader(config.pluginDir());
        this.nameServer = new NameServer(config.nameServer(), clock, threadFactory);
        this.nameServer.start();
        // the name server's port is known now, also when 0 asked for any free one
        this.config = config.registeringWith(config.nameServer().host() + ":" + nameServer.port());
        Broker created = null;
        try {
            created = new Broker(this.config.broker(), this.config.store(), clock, threadFactory,
                    pluginLoader != null ? pluginLoader : FerryServer.class.getClassLoader());
        } catch (RuntimeException e) {
            nameServer.close();
            throw e;
        }
        this.broker = created;
    }

    private static URLClassLoader pluginLoader(Path dir) {
        return dir == null ? null : PluginJars.open(dir, FerryServer.class.getClassLoader());
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
        return config.nameServer().host() + ":" + nameServer.port();
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
