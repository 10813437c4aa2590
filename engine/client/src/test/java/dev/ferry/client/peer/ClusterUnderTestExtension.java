package dev.ferry.client.peer;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives tests the cluster they run against, started once per test run and shared: an Apache
 * RocketMQ 5.3.3 name server and broker, or a ferry-server, as the {@code ferry.cluster}
 * system property says ({@code apache}, the default, or {@code ferry}). The build runs the
 * suite once against each.
 */
public final class ClusterUnderTestExtension implements ParameterResolver {
    /** The system property naming the cluster. */
    public static final String CLUSTER_PROPERTY = "ferry.cluster";

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == ClusterUnderTest.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        ExtensionContext.Store store = context.getRoot().getStore(ExtensionContext.Namespace.create(
                ClusterUnderTestExtension.class));
        String which = System.getProperty(CLUSTER_PROPERTY, "apache");
        return switch (which) {
            case "apache" -> store.getOrComputeIfAbsent(ApachePeer.class, key -> startApache(), ApachePeer.class);
            case "ferry" -> store.getOrComputeIfAbsent(FerryServerCluster.class, key -> FerryServerCluster.start(),
                    FerryServerCluster.class);
            default -> throw new IllegalArgumentException(CLUSTER_PROPERTY + " = " + which
                    + ": expected apache or ferry");
        };
    }

    private static ApachePeer startApache() {
        try {
            return ApachePeer.start();
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the Apache RocketMQ peer", e);
        }
    }
}
