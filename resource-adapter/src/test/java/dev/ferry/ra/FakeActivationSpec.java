package dev.ferry.ra;

import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.ResourceAdapter;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import java.util.List;

/**
 * An activation spec whose activation delivers nothing: activating it and closing its activation add {@code
 * "activate <name>"} and {@code "close <name>"} to a shared list of events, and its close may fail.
 */
final class FakeActivationSpec implements ActivationSpec, Activatable {
    private final String name;
    private final List<String> events;
    private final boolean failsToClose;
    private ResourceAdapter adapter;

    FakeActivationSpec(String name, List<String> events, boolean failsToClose) {
        this.name = name;
        this.events = events;
        this.failsToClose = failsToClose;
    }

    FakeActivationSpec(String name, List<String> events) {
        this(name, events, false);
    }

    @Override
    public AutoCloseable activate(MessageEndpointFactory endpoints, AdapterRuntime runtime) {
        events.add("activate " + name);
        return () -> {
            events.add("close " + name);
            if (failsToClose) {
                throw new IllegalStateException("cannot close " + name);
            }
        };
    }

    @Override
    public void validate() {
        // nothing to check
    }

    @Override
    public ResourceAdapter getResourceAdapter() {
        return adapter;
    }

    @Override
    public void setResourceAdapter(ResourceAdapter adapter) {
        this.adapter = adapter;
    }

    @Override
    public String toString() {
        return "FakeActivationSpec[" + name + "]";
    }
}
