package dev.ferry.ra;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;

/**
 * An activation spec the adapter can activate: it knows how to start consuming for its endpoints. The adapter
 * core depends on this, not on the inbound package.
 */
public interface Activatable {

    /**
     * Validates the spec and starts delivering to {@code endpoints}.
     *
     * @return what stops the deliveries: closing it stops pulling, lets running deliveries finish and persists
     *     the offsets
     */
    AutoCloseable activate(MessageEndpointFactory endpoints, AdapterRuntime runtime) throws ResourceException;
}
