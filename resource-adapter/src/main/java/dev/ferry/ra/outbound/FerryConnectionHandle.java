package dev.ferry.ra.outbound;

import dev.ferry.api.FerryConnection;
import dev.ferry.api.Message;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.api.SendResult;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * What an application holds: a cheap handle that sends through its managed connection's shared producer and
 * reports its {@link #close()} to that managed connection. Invalid after close or after the server cleaned up
 * the managed connection. Inside a transaction the managed connection takes part in, sends are held as half messages
 * until it commits. Thread-safe.
 */
public final class FerryConnectionHandle implements FerryConnection {
    private volatile FerryManagedConnection managed;
    private volatile boolean closed;

    FerryConnectionHandle(FerryManagedConnection managed) {
        this.managed = managed;
    }

    /** Moves the handle to {@code other}; returns the managed connection it had. */
    FerryManagedConnection associate(FerryManagedConnection other) {
        FerryManagedConnection previous = managed;
        managed = other;
        return previous;
    }

    void invalidate() {
        closed = true;
    }

    private FerryManagedConnection open() {
        FerryManagedConnection current = managed;
        if (closed || current == null) {
            throw new IllegalStateException("FERRY-RA-0320 the connection is closed");
        }
        return current;
    }

    @Override
    public SendResult send(Message message) {
        return open().send(message, null);
    }

    @Override
    public CompletableFuture<SendResult> sendAsync(Message message) {
        return open().sendAsync(message);
    }

    @Override
    public void sendOneway(Message message) {
        open().sendOneway(message);
    }

    @Override
    public SendResult sendOrdered(Message message, String shardingKey) {
        return open().send(message, Objects.requireNonNull(shardingKey, "shardingKey"));
    }

    @Override
    public ReceivedMessage request(Message message, Duration timeout) {
        return open().request(message, timeout);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        FerryManagedConnection current = managed;
        if (current != null) {
            current.closed(this);
        }
    }

    @Override
    public String toString() {
        return "FerryConnection[" + (closed ? "closed" : "open") + "]";
    }
}
