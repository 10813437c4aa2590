package dev.ferry.ra;

import jakarta.resource.NotSupportedException;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The adapter's running endpoint activations, each known by the two objects the server activated it with and passes
 * again to deactivate it. Thread-safe: the server may activate and deactivate from several threads.
 */
final class EndpointActivations {
    private static final System.Logger LOG = System.getLogger(EndpointActivations.class.getName());

    private final Map<ActivationKey, AutoCloseable> activations = new ConcurrentHashMap<>();

    /** Identity of one activation: the server passes the same two objects to deactivate it. */
    private record ActivationKey(MessageEndpointFactory factory, ActivationSpec spec) {
        @Override
        public boolean equals(Object o) {
            return o instanceof ActivationKey other && other.factory == factory && other.spec == spec;
        }

        @Override
        public int hashCode() {
            return 31 * System.identityHashCode(factory) + System.identityHashCode(spec);
        }
    }

    /**
     * Starts delivering to {@code endpoints} as {@code spec} says.
     *
     * @throws NotSupportedException when {@code spec} is not one of Ferry's
     */
    void activate(MessageEndpointFactory endpoints, ActivationSpec spec, AdapterRuntime runtime)
            throws ResourceException {
        if (!(spec instanceof Activatable activatable)) {
            throw new NotSupportedException("FERRY-RA-0020 activation spec " + spec + " is not Ferry's");
        }
        AutoCloseable activation = activatable.activate(endpoints, runtime);
        activations.put(new ActivationKey(endpoints, spec), activation);
    }

    /** Stops the activation of {@code endpoints} and {@code spec}; one that is not running is logged and skipped. */
    void deactivate(MessageEndpointFactory endpoints, ActivationSpec spec) {
        deactivate(new ActivationKey(endpoints, spec));
    }

    /** Stops every activation, each letting its running deliveries finish and persisting its offsets. */
    void deactivateAll() {
        for (ActivationKey key : List.copyOf(activations.keySet())) {
            deactivate(key);
        }
    }

    /** How many activations deliver now. */
    int count() {
        return activations.size();
    }

    private void deactivate(ActivationKey key) {
        AutoCloseable activation = activations.remove(key);
        if (activation == null) {
            LOG.log(Level.WARNING, "FERRY-RA-0021 no activation of {0} to deactivate", key.spec());
            return;
        }
        try {
            activation.close();
        } catch (Exception e) {
            LOG.log(Level.WARNING, "FERRY-RA-0022 deactivating " + activation + " failed", e);
        }
    }
}
