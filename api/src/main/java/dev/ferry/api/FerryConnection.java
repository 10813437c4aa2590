package dev.ferry.api;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * A connection to Ferry obtained from a {@link FerryConnectionFactory}: sends messages. Cheap to get and to
 * close; inside an application server the connection is a handle on a pooled connection, so get one per unit
 * of work and close it (try-with-resources) rather than keeping it.
 *
 * <p>Inside a JTA transaction (or a local transaction of the connection factory) every send is stored at once as
 * a half message and delivered only when the transaction commits; a rollback discards it (a reply, made with
 * {@link Replies#to}, is the exception: it is pushed to its requester at once and never stored). Such a send is always
 * made on the caller's thread and waits for the broker (the transaction must not prepare before it is stored), its
 * {@link SendResult} has the message id and queue but no queue offset yet ({@code -1}), and messages with a delay level
 * are refused; a delivery time or delay is kept, the broker timing the message from the commit. A failed send marks the
 * transaction rollback-only.
 *
 * <p>Every method throws {@link FerryException} (its {@link FerryException#isRetriable()} tells whether trying
 * again may help) and {@link IllegalStateException} once the connection is closed. Thread-safe, though a
 * connection is meant for one thread at a time.
 */
public interface FerryConnection extends AutoCloseable {

    /** Sends a message and waits for the broker's answer (retried on another broker when that may help). */
    SendResult send(Message message);

    /** Sends a message; the future completes with the broker's answer or a {@link FerryException}. */
    CompletableFuture<SendResult> sendAsync(Message message);

    /** Sends a message without waiting for, or getting, an answer; never retried. */
    void sendOneway(Message message);

    /**
     * Sends a message to the queue its sharding key maps to: messages with the same key reach an orderly
     * consumer in the order they were sent (as long as the topic's queues do not change).
     */
    SendResult sendOrdered(Message message, String shardingKey);

    /**
     * Sends {@code message} as a request and waits up to {@code timeout} for its reply, which a consumer sends with
     * {@link Replies#to} (a message-driven bean through a connection of its own): see {@code docs/request-reply.md}.
     * Never part of a transaction: inside one it is refused, since the request would be held until the commit, after
     * the wait for its reply.
     *
     * @throws RetriableException when no reply came within {@code timeout}
     * @throws FerryException when the request was not stored, or a transaction is active
     */
    ReceivedMessage request(Message message, Duration timeout);

    /** Gives the connection back; later calls throw {@link IllegalStateException}. Closing twice is allowed. */
    @Override
    void close();
}
