package dev.ferry.server;

import dev.ferry.remoting.NettyThreadLocals;
import dev.ferry.server.broker.Broker;
import dev.ferry.server.namesrv.NameServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
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
