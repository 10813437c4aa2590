package dev.ferry.ra.outbound;

import dev.ferry.api.FerryConnection;
import dev.ferry.api.FerryConnectionFactory;
import dev.ferry.api.FerryException;
import jakarta.resource.Referenceable;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionManager;
import java.util.Objects;
import javax.naming.Reference;

/**
 * The {@link FerryConnectionFactory} applications get (by {@code @Resource} lookup or
 * {@code @ConnectionFactoryDefinition}): asks the server's {@link ConnectionManager} for a connection, which
 * pools the managed connections. Serializable and referenceable so that the server can bind it in JNDI.
 * Thread-safe.
 */
public final class FerryConnectionFactoryImpl implements FerryConnectionFactory, Referenceable {
    private static final long serialVersionUID = 1L;

    private final FerryManagedConnectionFactory factory;
    private final ConnectionManager connectionManager;
    private Reference reference;

    FerryConnectionFactoryImpl(FerryManagedConnectionFactory factory, ConnectionManager connectionManager) {
        this.factory = Objects.requireNonNull(factory, "factory");
        this.connectionManager = Objects.requireNonNull(connectionManager, "connectionManager");
    }

    @Override
    public FerryConnection getConnection() {
        try {
            return (FerryConnection) connectionManager.allocateConnection(factory, null);
        } catch (ResourceException e) {
            throw new FerryException("FERRY-RA-0330 cannot get a Ferry connection: " + e.getMessage(), e);
        }
    }

    @Override
    public void setReference(Reference reference) {
        this.reference = reference;
    }

    @Override
    public Reference getReference() {
        return reference;
    }

    @Override
    public String toString() {
        return "FerryConnectionFactory[" + factory + "]";
    }
}
