package dev.ferry.ra;

import dev.ferry.format.Clock;
import dev.ferry.server.embedded.EmbeddedEngine;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.ResourceAdapterInternalException;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.resource.spi.work.HintsContext;
import java.lang.System.Logger.Level;
import java.util.Optional;

/**
 * Starts and stops one adapter, in this order: at start its threads (works of the server's WorkManager), then in
 * embedded mode the engine, then the {@link AdapterRuntime} its activations and connection factories use; at stop
 * every activation first (each lets its running deliveries finish and persists its offsets), then the runtime, which
 * closes the connection factories' producers and then the engine. Threads: {@code start}, {@code stop} and the
 * activation calls come from the server.
 */
final class AdapterLifecycle {
    private static final System.Logger LOG = System.getLogger(AdapterLifecycle.class.getName());

    private final EndpointActivations activations = new EndpointActivations();
    private volatile AdapterRuntime runtime;

    /** Starts the adapter with the settings {@code config}, which are valid already. */
    void start(AdapterConfig config, BootstrapContext context) throws ResourceAdapterInternalException {
        if (runtime != null) {
            throw new ResourceAdapterInternalException("FERRY-RA-0005 the adapter is started already");
        }
        WorkManagerThreadFactory threads = new WorkManagerThreadFactory(context.getWorkManager(),
                config.threadPlacement(), "ferry-ra-engine",
                context.isContextSupported(HintsContext.class), FerryResourceAdapter.class.getClassLoader());
        EmbeddedEngine engine = config.mode() == AdapterConfig.Mode.EMBEDDED
                ? EmbeddedEngineLauncher.start(config, threads) : null;
        try {
            this.runtime = new AdapterRuntime(config, threads, engine, Clock.system());
        } catch (RuntimeException e) {
            // the plugin directory went away since it was validated, say: nothing started may outlive start()
            if (engine != null) {
                engine.close();
            }
            String message = "FERRY-RA-0006 cannot start the adapter: " + EmbeddedEngineLauncher.causes(e);
            LOG.log(Level.ERROR, message, e);
            throw new ResourceAdapterInternalException(message, e);
        }
        logStarted(config, engine);
    }

    private void logStarted(AdapterConfig config, EmbeddedEngine engine) {
        if (engine != null && config.nameServer().isPresent()) {
            LOG.log(Level.INFO, "FERRY-RA-0001 started in embedded mode as broker {0} id {1} of cluster {2}, "
                    + "registered with {3}: broker port {4}, store {5}", config.brokerName(),
                    String.valueOf(config.brokerId()), config.clusterName(), runtime.nameServerAddress(),
                    String.valueOf(engine.brokerPort()), config.storeDir().toAbsolutePath());
        } else if (engine != null) {
            LOG.log(Level.INFO, "FERRY-RA-0001 started in embedded mode: name server {0}, broker port {1}, store {2}",
                    runtime.nameServerAddress(), String.valueOf(engine.brokerPort()),
                    config.storeDir().toAbsolutePath());
        } else {
            LOG.log(Level.INFO, "FERRY-RA-0001 started in remote mode: name server {0}", runtime.nameServerAddress());
        }
    }

    /** Stops every activation, then the runtime; nothing when the adapter is not started. */
    void stop() {
        AdapterRuntime current = runtime;
        if (current == null) {
            return;
        }
        current.beginStop();
        activations.deactivateAll();
        current.close();
        runtime = null;
        LOG.log(Level.INFO, "FERRY-RA-0009 stopped");
    }

    void activate(MessageEndpointFactory endpoints, ActivationSpec spec) throws ResourceException {
        activations.activate(endpoints, spec, runtime());
    }

    void deactivate(MessageEndpointFactory endpoints, ActivationSpec spec) {
        activations.deactivate(endpoints, spec);
    }

    /**
     * The running adapter's runtime.
     *
     * @throws ResourceAdapterInternalException when the adapter is not started
     */
    AdapterRuntime runtime() throws ResourceAdapterInternalException {
        AdapterRuntime current = runtime;
        if (current == null) {
            throw new ResourceAdapterInternalException("FERRY-RA-0004 the Ferry resource adapter is not started");
        }
        return current;
    }

    Optional<AdapterRuntime> runningRuntime() {
        return Optional.ofNullable(runtime);
    }

    int activationCount() {
        return activations.count();
    }
}
