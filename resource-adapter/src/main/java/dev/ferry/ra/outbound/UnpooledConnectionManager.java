package dev.ferry.ra.outbound;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionEvent;
import jakarta.resource.spi.ConnectionEventListener;
import jakarta.resource.spi.ConnectionManager;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ManagedConnectionFactory;

/**
 * The connection manager outside an application server: a new managed connection per connection, destroyed
 * when its handle closes. (Cheap: the managed connections share their factory's producer.)
 */
final class UnpooledConnectionManager implements ConnectionManager {
    private static final long serialVersionUID = 1L;

    @Override
    public Object allocateConnection(ManagedConnectionFactory factory, ConnectionRequestInfo info)
            throws ResourceException {
        ManagedConnection managed = factory.createManagedConnection(null, info);
        managed.addConnectionEventListener(new ConnectionEventListener() {
            @Override
            public void connectionClosed(ConnectionEvent event) {
                destroy(managed);
            }

            @Override
            public void localTransactionStarted(ConnectionEvent event) {
            }

            @Override
            public void localTransactionCommitted(ConnectionEvent event) {
            }

            @Override
            public void localTransactionRolledback(ConnectionEvent event) {
            }

            @Override
            public void connectionErrorOccurred(ConnectionEvent event) {
                destroy(managed);
            }
        });
        return managed.getConnection(null, info);
    }

    private static void destroy(ManagedConnection managed) {
        try {
            managed.destroy();
        } catch (ResourceException e) {
            System.getLogger(UnpooledConnectionManager.class.getName()).log(System.Logger.Level.WARNING,
                    "FERRY-RA-0340 destroying " + managed + " failed", e);
        }
    }
}
