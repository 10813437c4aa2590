package dev.ferry.ra;

import dev.ferry.client.ClientConfig;
import dev.ferry.client.FerryClient;
import dev.ferry.format.Clock;
import dev.ferry.remoting.Credentials;
import dev.ferry.ra.management.EngineStatus;
import dev.ferry.ra.management.ManagementBeans;
import dev.ferry.server.embedded.EmbeddedEngine;
import dev.ferry.spi.PluginJars;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.URLClassLoader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What a started adapter offers its activations and connection factories: the name server address, clients
 * whose threads come from the server's WorkManager, and a place to register what must close when the adapter
 * stops. Created by {@code AdapterLifecycle.start} and closed by its {@code stop}; thread-safe.
 */
public final class AdapterRuntime implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(AdapterRuntime.class.getName());
    /** How long {@link #close()} waits for the adapter's works to end. */
    private static final Duration WORKS_END_TIMEOUT = Duration.ofSeconds(10);
    /** How long {@link #close()} lets idle loops end by themselves before it interrupts them. */
    private static final Duration GRACE = Duration.ofMillis(200);

    private final AdapterConfig config;
    private final WorkManagerThreadFactory threads;
    private final EmbeddedEngine engine;
    private final String nameServerAddress;
    private final List<WorkManagerThreadFactory> factories = new CopyOnWriteArrayList<>();
    private final List<AutoCloseable> closeAtStop = new CopyOnWriteArrayList<>();
    /** The plugin directory's jars over the adapter's classes, or {@code null} without a plugin directory. */
    private final URLClassLoader pluginJars;
    private final Clock clock;

    AdapterRuntime(AdapterConfig config, WorkManagerThreadFactory threads, EmbeddedEngine engine, Clock clock) {
        this.config = Objects.requireNonNull(config, "config");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.threads = Objects.requireNonNull(threads, "threads");
        this.engine = engine;
        this.nameServerAddress = engine != null ? engine.nameServerAddress() : config.nameServer().orElseThrow();
        this.pluginJars = config.pluginDir().map(dir -> PluginJars.open(dir, AdapterRuntime.class.getClassLoader()))
                .orElse(null);
        factories.add(threads);
        this.engineBean = engine == null ? null : ManagementBeans.register("EmbeddedEngine",
                engine.nameServerAddress(), new EngineStatus(engine));
    }

    /** The embedded engine's management bean, or {@code null} without one. */
    private final ManagementBeans engineBean;

    public AdapterConfig config() {
        return config;
    }

    /** The adapter's clock: its clients', its activations' and its waits'. */
    public Clock clock() {
        return clock;
    }

    /** The name servers clients use unless told otherwise: the embedded one's, or the configured remote ones. */
    public String nameServerAddress() {
        return nameServerAddress;
    }

    /** The embedded engine, when the adapter runs one. */
    public Optional<EmbeddedEngine> embeddedEngine() {
        return Optional.ofNullable(engine);
    }

    /**
     * Where plugins are looked up for one user of the adapter: first {@code application}'s loader (the plugin jars
     * an application carries serve that application's activations only), then the adapter's plugin directory,
     * then the adapter itself (its built-in plugins and, on Liberty, a shared library given to it).
     */
    public List<ClassLoader> pluginLoaders(Optional<ClassLoader> application) {
        List<ClassLoader> loaders = new ArrayList<>(3);
        application.ifPresent(loaders::add);
        loaders.add(pluginJars != null ? pluginJars : AdapterRuntime.class.getClassLoader());
        return List.copyOf(loaders);
    }

    /**
     * A new client whose threads come from the WorkManager, named {@code ferry-ra-<role>-N}.
     *
     * @param nameServer other name servers than the adapter's, if given
     * @param instanceName a stable instance name (broadcasting consumers keep local offsets by it), if given
     * @param pluginLoaders where its consumers look plugins up ({@link #pluginLoaders})
     * @param credentials what its requests are signed with, if not the adapter's
     */
    public FerryClient newClient(String role, Optional<String> nameServer, Optional<String> instanceName,
                                 List<ClassLoader> pluginLoaders, Optional<Credentials> credentials) {
        WorkManagerThreadFactory clientThreads = threads.named("ferry-ra-" + role);
        factories.add(clientThreads);
        ClientConfig.Builder builder = ClientConfig.builder(nameServer.orElse(nameServerAddress))
                .threadFactory(clientThreads).clock(clock)
                .localOffsetDirectory(config.localOffsetDirectory())
                .pluginClassLoaders(pluginLoaders)
                .tls(engine != null ? engine.clientTls() : config.clientTls());
        credentials.or(config::credentials).or(() -> engine != null ? engine.clientCredentials() : Optional.empty())
                .ifPresent(c -> builder.credentials(c.accessKey(), c.secretKey()));
        instanceName.ifPresent(builder::instanceName);
        return new FerryClient(builder.build());
    }

    /** Closes {@code resource} when the adapter stops, unless it was {@link #forget forgotten} before. */
    public void closeAtStop(AutoCloseable resource) {
        closeAtStop.add(resource);
    }

    public void forget(AutoCloseable resource) {
        closeAtStop.remove(resource);
    }

    /** How many WorkManager works of the adapter run now (engine and clients). */
    public int runningWorks() {
        return factories.stream().mapToInt(WorkManagerThreadFactory::runningWorks).sum();
    }

    private void awaitWorks(Duration timeout) {
        long deadline = clock.nanos() + timeout.toNanos();
        while (runningWorks() > 0 && clock.nanos() - deadline < 0) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** The names of the adapter's threads running now. */
    public List<String> runningThreadNames() {
        return factories.stream().flatMap(f -> f.runningThreadNames().stream()).toList();
    }

    /** The adapter begins to stop: threads needed to close things start even if the server refuses work. */
    void beginStop() {
        threads.stopping();
    }

    /**
     * Closes what was registered (newest first), then the embedded engine (which persists offsets, topics and
     * the store), then waits for the adapter's works to end.
     */
    @Override
    public void close() {
        beginStop();
        List<AutoCloseable> resources = new ArrayList<>(closeAtStop);
        Collections.reverse(resources);
        closeAtStop.clear();
        for (AutoCloseable resource : resources) {
            try {
                resource.close();
            } catch (Exception e) {
                LOG.log(Level.WARNING, "FERRY-RA-0010 closing " + resource + " failed", e);
            }
        }
        if (engineBean != null) {
            engineBean.close();
        }
        if (engine != null) {
            try {
                engine.close();
                LOG.log(Level.INFO, "FERRY-RA-0011 embedded engine stopped; its store is in {0}",
                        config.storeDir().toAbsolutePath());
            } catch (RuntimeException e) {
                LOG.log(Level.ERROR, "FERRY-RA-0012 stopping the embedded engine failed", e);
            }
        }
        // Everything is closed; give any loop still finishing its round a moment to end on its own,
        // then interrupt what a component failed to stop, so no adapter thread outlives stop().
        awaitWorks(GRACE);
        if (runningWorks() > 0) {
            factories.forEach(WorkManagerThreadFactory::interruptRunning);
            awaitWorks(WORKS_END_TIMEOUT);
        }
        if (pluginJars != null) {
            try {
                pluginJars.close();
            } catch (IOException e) {
                LOG.log(Level.WARNING, "FERRY-RA-0014 closing the plugin directory's jars failed", e);
            }
        }
        if (runningWorks() > 0) {
            LOG.log(Level.WARNING, "FERRY-RA-0013 {0} adapter threads still run {1} after stop: {2}",
                    String.valueOf(runningWorks()), WORKS_END_TIMEOUT, runningThreadNames());
        }
    }
}
