package dev.ferry.client.peer;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Hands test classes one {@link ClusterUnderTest}: an {@link ApachePeer} started on first use and shared by
 * every class of the run. It lives in the root extension store, which closes (kills) it when the run ends.
 */
public final class ApachePeerExtension implements ParameterResolver {

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == ClusterUnderTest.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        ExtensionContext.Store store = context.getRoot().getStore(ExtensionContext.Namespace.create(
                ApachePeerExtension.class));
        return store.getOrComputeIfAbsent(ApachePeer.class, key -> startPeer(), ApachePeer.class);
    }

    private static ApachePeer startPeer() {
        try {
            return ApachePeer.start();
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the Apache RocketMQ peer", e);
        }
    }
}
