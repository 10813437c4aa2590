package dev.ferry.server;

import dev.ferry.format.Clock;
import dev.ferry.format.ThreadRoles;
import dev.ferry.remoting.NettyThreadLocals;
import dev.ferry.remoting.Credentials;
import dev.ferry.remoting.FileErrors;
import dev.ferry.remoting.ListenException;
import dev.ferry.server.auth.AuthMetadata;
import dev.ferry.server.auth.AuthUser;
import dev.ferry.server.auth.UserStatus;
import dev.ferry.server.auth.UserType;
import dev.ferry.server.broker.Broker;
import dev.ferry.server.broker.BrokerConfig;
import dev.ferry.server.metrics.ServerMetrics;
import dev.ferry.server.namesrv.NameServer;
import dev.ferry.spi.PluginJars;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.ThreadFactory;

/**
 * A name server and a broker in one process, as {@code ferry-server} and the resource
 * adapter's embedded mode run them, or either alone ({@link FerryServerConfig.Role}) for a cluster of processes.
 * The name server starts first, so the broker's first registration makes routes answerable by the time
 * {@link #start()} returns.
 */
public final class FerryServer implements AutoCloseable {
    private final FerryServerConfig config;
    private final NameServer nameServer;
    private final Broker broker;
    private static final System.Logger LOG = System.getLogger(FerryServer.class.getName());

    private final URLClassLoader pluginLoader;
    private final PluginInventory plugins;
    private final AuthMetadata authMetadata;
    /** The broker's hold on its store directory; {@code null} for a name server alone. */
    private final StoreLock storeLock;
    /** The metrics, when on: only then is the metrics library loaded. */
    private final ServerMetrics metrics;

    /**
     * Opens the servers; the name server listens already.
     *
     * @throws StartupException when a port is taken, the store directory is another broker's or the plugin
     *                          directory cannot be read, naming the config key to fix
     * @throws IllegalArgumentException naming the config key and file of a missing or bad TLS certificate or key
     */
    public FerryServer(FerryServerConfig config, Clock clock, ThreadFactory threads) {
        ThreadFactory threadFactory = clearedKeepingRoles(threads);
        FerryServerConfig.Role role = config.role();
        // taken before anything reads the store, held until close
        this.storeLock = role.runsBroker() ? StoreLock.acquire(config.storeDir()) : null;
        URLClassLoader loader = null;
        NameServer names = null;
        try {
            loader = role.runsBroker() ? pluginLoader(config.pluginDir()) : null;
            this.pluginLoader = loader;
            this.plugins = role.runsBroker() ? PluginInventory.of(FerryServer.class.getClassLoader(), loader,
                    config.pluginDir()) : null;
            this.authMetadata = authMetadata(config);
            if (role.runsNameServer()) {
                names = new NameServer(config.nameServer(), clock, threadFactory);
                if (config.auth().authenticationEnabled()) {
                    names.controlAccess(authMetadata, config.broker().clusterName(), true,
                            config.auth().authorizationEnabled());
                }
                startListening(names::start, role == FerryServerConfig.Role.NAME_SERVER ? "listenPort"
                        : "namesrvPort", "host");
                // the name server's port is known now, also when 0 asked for any free one
                this.config = config.registeringWith(config.nameServer().host() + ":" + names.port());
            } else {
                this.config = config;
            }
            this.nameServer = names;
            if (!role.runsBroker()) {
                this.broker = null;
                this.metrics = null;
                return;
            }
            this.broker = new Broker(this.config.broker(), this.config.store(), clock, threadFactory,
                    loader != null ? loader : FerryServer.class.getClassLoader());
            broker.controlAccess(authMetadata, config.auth());
            this.metrics = config.metrics().enabled() ? new ServerMetrics(config.metrics(), broker, threadFactory)
                    : null;
        } catch (RuntimeException e) {
            closeAll(e, names, loader, storeLock);
            throw e;
        }
    }

    /** Closes what a failed start opened, in reverse order, keeping {@code failure} as the reason. */
    private static void closeAll(RuntimeException failure, AutoCloseable... opened) {
        for (AutoCloseable each : opened) {
            if (each == null) {
                continue;
            }
            try {
                each.close();
            } catch (Exception e) {
                failure.addSuppressed(e);
            }
        }
    }

    /** Runs {@code listen}, telling a port in use or a wrong host by the config key that sets it. */
    private static void startListening(Runnable listen, String portKey, String hostKey) {
        try {
            listen.run();
        } catch (ListenException e) {
            throw new StartupException(e.portInUse() ? portKey : hostKey, e.getMessage(), e);
        }
    }

    /**
     * {@code threads}, with Netty's thread-locals cleared after each task, each task still carrying its role to
     * {@code threads}, which may name the thread after it.
     */
    private static ThreadFactory clearedKeepingRoles(ThreadFactory threads) {
        return task -> NettyThreadLocals.clearedAfterEachTask(cleared -> threads.newThread(
                ThreadRoles.roleOf(task).map(role -> ThreadRoles.withRole(role, cleared)).orElse(cleared)))
                .newThread(task);
    }

    /** The users and policies, in the store directory; the configured first users created when absent. */
    private static AuthMetadata authMetadata(FerryServerConfig config) {
        AuthMetadata metadata = new AuthMetadata(config.storeDir().resolve("config").resolve("auth"));
        config.auth().initUser().ifPresent(user -> metadata.createIfAbsent(superUser(user)));
        config.auth().innerCredentials().ifPresent(user -> metadata.createIfAbsent(superUser(user)));
        if (config.auth().authorizationEnabled() && !config.auth().authenticationEnabled()) {
            LOG.log(System.Logger.Level.WARNING, "authorization is on without authentication: requests are judged "
                    + "by the user they name, which nobody checks");
        }
        return metadata;
    }

    private static AuthUser superUser(Credentials credentials) {
        return new AuthUser(credentials.accessKey(), credentials.secretKey(), UserType.SUPER, UserStatus.ENABLE);
    }

    /** Users and policies of both servers. */
    public AuthMetadata authMetadata() {
        return authMetadata;
    }

    /** The plugins the broker found, by origin and kind; empty when this server runs no broker. */
    public Optional<PluginInventory> plugins() {
        return Optional.ofNullable(plugins);
    }

    private static URLClassLoader pluginLoader(Path dir) {
        if (dir == null) {
            return null;
        }
        try {
            return PluginJars.open(dir, FerryServer.class.getClassLoader());
        } catch (IllegalArgumentException e) {
            throw new StartupException("pluginDir", "cannot read " + dir + " (" + (Files.exists(dir)
                    ? "not a directory" : "no such directory") + ")", e);
        } catch (UncheckedIOException e) {
            throw new StartupException("pluginDir", "cannot read " + dir + " (" + FileErrors.reason(e.getCause())
                    + ")", e);
        }
    }

    /**
     * Starts the broker, if it runs one (the name server is already listening).
     *
     * @throws StartupException when a port is taken or the host is not this machine's, naming the config key; the
     *                          server is closed then
     */
    public FerryServer start() {
        try {
            if (broker != null) {
                BrokerConfig own = config.broker();
                boolean alone = config.role() == FerryServerConfig.Role.BROKER;
                try {
                    broker.start();
                } catch (ListenException e) {
                    String portKey = e.port() != own.port() ? "haListenPort" : alone ? "listenPort" : "brokerPort";
                    throw new StartupException(e.portInUse() ? portKey : "host", e.getMessage(), e);
                }
            }
            if (metrics != null) {
                startListening(metrics::start, "metricsPromExporterPort", "metricsPromExporterHost");
            }
        } catch (RuntimeException e) {
            closeAll(e, this);
            throw e;
        }
        return this;
    }

    /** The port metrics are served on, when they are. */
    public java.util.OptionalInt metricsPort() {
        return metrics == null ? java.util.OptionalInt.empty() : metrics.port();
    }

    /** The settings it runs with. */
    public FerryServerConfig config() {
        return config;
    }

    /** @throws IllegalStateException when the process runs no name server */
    public int namesrvPort() {
        return nameServer().port();
    }

    /** @throws IllegalStateException when the process runs no broker */
    public int brokerPort() {
        return broker().port();
    }

    /**
     * {@code host:port} of a name server, as clients configure it: this process's own, else the first the broker
     * registers with.
     */
    public String nameServerAddress() {
        return nameServer != null ? config.nameServer().host() + ":" + nameServer.port()
                : config.broker().nameServers().get(0);
    }

    /** @throws IllegalStateException when the process runs no broker */
    public Broker broker() {
        if (broker == null) {
            throw new IllegalStateException("this process runs no broker (role " + config.role() + ")");
        }
        return broker;
    }

    /** @throws IllegalStateException when the process runs no name server */
    public NameServer nameServer() {
        if (nameServer == null) {
            throw new IllegalStateException("this process runs no name server (role " + config.role() + ")");
        }
        return nameServer;
    }

    @Override
    public void close() {
        if (metrics != null) {
            metrics.close();
        }
        try {
            if (broker != null) {
                broker.close();
            }
        } finally {
            if (nameServer != null) {
                nameServer.close();
            }
            if (storeLock != null) {
                storeLock.close();
            }
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
