package dev.ferry.ra.outbound;

import dev.ferry.api.FerryException;
import dev.ferry.api.Message;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.api.Replies;
import dev.ferry.api.SendResult;
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
import jakarta.resource.spi.TransactionSupport;
import java.io.PrintWriter;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.security.auth.Subject;
import javax.transaction.xa.XAResource;

/**
 * A pooled connection: a view of its factory's shared producer that hands out {@link FerryConnectionHandle}s.
 * Closing a handle tells the server, through a {@code CONNECTION_CLOSED} event, that it can pool this managed
 * connection again. {@link #cleanup()} invalidates the handles; {@link #destroy()} also refuses new ones (the
 * shared producer lives on). Takes part in XA and local transactions (as its factory's {@code transactionSupport}
 * allows): while associated with a branch, its sends are half messages of it ({@link TransactionBranches}).
 * Thread-safe.
 */
public final class FerryManagedConnection implements ManagedConnection {
    private static final System.Logger LOG = System.getLogger(FerryManagedConnection.class.getName());

    private final FerryManagedConnectionFactory factory;
    private final SharedProducer shared;
    private final Set<FerryConnectionHandle> handles = ConcurrentHashMap.newKeySet();
    private final List<ConnectionEventListener> listeners = new CopyOnWriteArrayList<>();
    private final TransactionBranches branches;
    private final XAResource xaResource;
    private final LocalTransaction localTransaction;
    /** The transaction branch this connection's sends belong to now, if any. */
    private volatile TransactionBranches.Branch branch;
    private volatile boolean destroyed;
    private volatile PrintWriter logWriter;

    FerryManagedConnection(FerryManagedConnectionFactory factory, SharedProducer shared,
                           TransactionBranches branches) {
        this.factory = factory;
        this.shared = shared;
        this.branches = branches;
        this.xaResource = new ConnectionXaResource(this, branches);
        this.localTransaction = new ConnectionLocalTransaction(this, branches);
    }

    /** From now on this connection's sends are half messages of {@code branch}. */
    void associate(TransactionBranches.Branch value) {
        this.branch = value;
    }

    /** Ends the association with branch {@code id}, if it is the current one. */
    void dissociate(BranchId id) {
        TransactionBranches.Branch current = branch;
        if (current != null && current.id().equals(id)) {
            branch = null;
        }
    }

    /**
     * Sends through the shared producer; inside a transaction branch as a half message of it, delivered when the
     * transaction commits.
     */
    SendResult send(Message message, String shardingKey) {
        TransactionBranches.Branch current = branch;
        // a reply is pushed to its requester, never stored: it cannot wait for a commit as a half message
        if (current != null && !Replies.isReply(message)) {
            return branches.send(current, message, shardingKey);
        }
        return shardingKey == null ? producer().send(message) : producer().send(message, shardingKey);
    }

    CompletableFuture<SendResult> sendAsync(Message message) {
        TransactionBranches.Branch current = branch;
        if (current != null && !Replies.isReply(message)) {
            // the transaction needs the half message stored before it may prepare: sent here, on the caller's thread
            try {
                return CompletableFuture.completedFuture(branches.send(current, message, null));
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
        return producer().sendAsync(message);
    }

    void sendOneway(Message message) {
        TransactionBranches.Branch current = branch;
        if (current != null && !Replies.isReply(message)) {
            branches.send(current, message, null);
        } else {
            producer().sendOneway(message);
        }
    }

    /**
     * Sends a request and waits for its reply; refused inside a transaction branch, where the request would be held
     * until the commit.
     */
    ReceivedMessage request(Message message, Duration timeout) {
        if (branch != null) {
            throw new FerryException("FERRY-RA-0330 a request cannot be sent inside a transaction: its message would "
                    + "be held until the commit, after the wait for its reply");
        }
        try {
            return producer().request(message, timeout).join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof FerryException ferry ? ferry
                    : new FerryException("request to '" + message.topic() + "' failed: " + e.getCause(), e);
        }
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

    /** The producer as a transaction branch uses it. */
    HalfMessages halfMessages() {
        return HalfMessages.of(shared.producer());
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
        if (factory.getTransactionSupport() != TransactionSupport.TransactionSupportLevel.XATransaction) {
            throw new NotSupportedException("FERRY-RA-0312 this connection factory's transactionSupport is "
                    + factory.getTransactionSupport() + ": its connections take part in no XA transaction");
        }
        return xaResource;
    }

    @Override
    public LocalTransaction getLocalTransaction() throws ResourceException {
        if (factory.getTransactionSupport() == TransactionSupport.TransactionSupportLevel.NoTransaction) {
            throw new NotSupportedException("FERRY-RA-0313 this connection factory's transactionSupport is "
                    + "NoTransaction: its connections take part in no local transaction");
        }
        return localTransaction;
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
