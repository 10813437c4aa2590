package dev.ferry.server;

import dev.ferry.format.ThreadRoles;
import dev.ferry.remoting.NettyThreadLocals;
import dev.ferry.remoting.Credentials;
import dev.ferry.server.auth.AuthMetadata;
import dev.ferry.server.auth.AuthUser;
import dev.ferry.server.auth.UserStatus;
import dev.ferry.server.auth.UserType;
import dev.ferry.server.broker.Broker;
import dev.ferry.server.metrics.ServerMetrics;
import dev.ferry.server.namesrv.NameServer;
import dev.ferry.spi.PluginJars;
import java.io.IOException;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.Clock;
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
    /** The metrics, when on: only then is the metrics library loaded. */
    private final ServerMetrics metrics;

    public FerryServer(FerryServerConfig config, Clock clock, ThreadFactory threads) {
        ThreadFactory threadFactory = clearedKeepingRoles(threads);
        FerryServerConfig.Role role = config.role();
        this.pluginLoader = role.runsBroker() ? pluginLoader(config.pluginDir()) : null;
        this.plugins = role.runsBroker() ? PluginInventory.of(FerryServer.class.getClassLoader(), pluginLoader,
                config.pluginDir()) : null;
        this.authMetadata = authMetadata(config);
        if (role.runsNameServer()) {
            this.nameServer = new NameServer(config.nameServer(), clock, threadFactory);
            if (config.auth().authenticationEnabled()) {
                nameServer.controlAccess(authMetadata, config.broker().clusterName(), true,
                        config.auth().authorizationEnabled());
            }
            this.nameServer.start();
            // the name server's port is known now, also when 0 asked for any free one
            this.config = config.registeringWith(config.nameServer().host() + ":" + nameServer.port());
        } else {
            this.nameServer = null;
            this.config = config;
        }
        if (!role.runsBroker()) {
            this.broker = null;
            this.metrics = null;
            return;
        }
        Broker created = null;
        try {
            created = new Broker(this.config.broker(), this.config.store(), clock, threadFactory,
                    pluginLoader != null ? pluginLoader : FerryServer.class.getClassLoader());
            created.controlAccess(authMetadata, config.auth());
        } catch (RuntimeException e) {
            if (nameServer != null) {
                nameServer.close();
            }
            throw e;
        }
        this.broker = created;
        this.metrics = config.metrics().enabled() ? new ServerMetrics(config.metrics(), broker, threadFactory) : null;
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
        return dir == null ? null : PluginJars.open(dir, FerryServer.class.getClassLoader());
    }

    /** Starts the broker, if it runs one (the name server is already listening). */
    public FerryServer start() {
        if (broker != null) {
            broker.start();
        }
        if (metrics != null) {
            metrics.start();
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
