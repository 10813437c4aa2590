package dev.ferry.ra.outbound;

import dev.ferry.client.Producer;
import dev.ferry.remoting.Credentials;
import jakarta.resource.NotSupportedException;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionEvent;
import jakarta.resource.spi.ConnectionEventListener;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.IllegalStateException;
import jakarta.resource.spi.LocalTransaction;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ManagedConnectionMetaData;
import java.io.PrintWriter;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.security.auth.Subject;
import javax.transaction.xa.XAResource;

/**
 * A pooled connection: a view of its factory's shared producer that hands out {@link FerryConnectionHandle}s.
 * Closing a handle tells the server, through a {@code CONNECTION_CLOSED} event, that it can pool this managed
 * connection again. {@link #cleanup()} invalidates the handles; {@link #destroy()} also refuses new ones (the
 * shared producer lives on). No local or XA transactions. Thread-safe.
 */
public final class FerryManagedConnection implements ManagedConnection {
    private static final System.Logger LOG = System.getLogger(FerryManagedConnection.class.getName());

    private final FerryManagedConnectionFactory factory;
    private final SharedProducer shared;
    private final Set<FerryConnectionHandle> handles = ConcurrentHashMap.newKeySet();
    private final List<ConnectionEventListener> listeners = new CopyOnWriteArrayList<>();
    private volatile boolean destroyed;
    private volatile PrintWriter logWriter;

    FerryManagedConnection(FerryManagedConnectionFactory factory, SharedProducer shared) {
        this.factory = factory;
        this.shared = shared;
    }

    /** Whom its sends are signed as: the container's or the factory's user, or nobody. */
    Optional<Credentials> credentials() {
        return shared.credentials();
    }

    FerryManagedConnectionFactory factory() {
        return factory;
    }

    Producer producer() {
        return shared.producer();
    }

    boolean isUsable() {
        return !destroyed;
    }

    /** The handles open now. */
    int openHandles() {
        return handles.size();
    }

    @Override
    public Object getConnection(Subject subject, ConnectionRequestInfo info) throws ResourceException {
        ensureNotDestroyed();
        FerryConnectionHandle handle = new FerryConnectionHandle(this);
        handles.add(handle);
        return handle;
    }

    @Override
    public void associateConnection(Object connection) throws ResourceException {
        ensureNotDestroyed();
        if (!(connection instanceof FerryConnectionHandle handle)) {
            throw new ResourceException("FERRY-RA-0310 cannot associate " + connection + ": not a Ferry connection");
        }
        FerryManagedConnection previous = handle.associate(this);
        if (previous != null && previous != this) {
            previous.handles.remove(handle);
        }
        handles.add(handle);
    }

    /** Called by a handle's {@code close()}: forget it and tell the server. */
    void closed(FerryConnectionHandle handle) {
        if (!handles.remove(handle)) {
            return;
        }
        ConnectionEvent event = new ConnectionEvent(this, ConnectionEvent.CONNECTION_CLOSED);
        event.setConnectionHandle(handle);
        for (ConnectionEventListener listener : listeners) {
            try {
                listener.connectionClosed(event);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "FERRY-RA-0311 a connection event listener failed", e);
            }
        }
    }

    /** Invalidates every handle (they throw from now on); the connection can be pooled again. */
    @Override
    public void cleanup() {
        for (FerryConnectionHandle handle : List.copyOf(handles)) {
            handle.invalidate();
        }
        handles.clear();
    }

    @Override
    public void destroy() {
        destroyed = true;
        cleanup();
        listeners.clear();
    }

    @Override
    public void addConnectionEventListener(ConnectionEventListener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeConnectionEventListener(ConnectionEventListener listener) {
        listeners.remove(listener);
    }

    @Override
    public XAResource getXAResource() throws ResourceException {
        throw new NotSupportedException("FERRY-RA-0312 Ferry connections take part in no XA transaction");
    }

    @Override
    public LocalTransaction getLocalTransaction() throws ResourceException {
        throw new NotSupportedException("FERRY-RA-0313 Ferry connections take part in no local transaction");
    }

    @Override
    public ManagedConnectionMetaData getMetaData() {
        return new ManagedConnectionMetaData() {
            @Override
            public String getEISProductName() {
                return "Ferry";
            }

            @Override
            public String getEISProductVersion() {
                return "0.1";
            }

            @Override
            public int getMaxConnections() {
                return 0; // no limit: managed connections share one producer
            }

            @Override
            public String getUserName() {
                return "";
            }
        };
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        this.logWriter = out;
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }

    private void ensureNotDestroyed() throws IllegalStateException {
        if (destroyed) {
            throw new IllegalStateException("FERRY-RA-0314 the managed connection was destroyed");
        }
    }

    @Override
    public String toString() {
        return "FerryManagedConnection[" + shared + ", handles=" + handles.size() + "]";
    }
}
