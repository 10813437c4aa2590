package dev.ferry.client;

import dev.ferry.api.FerryException;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.api.RetriableException;
import dev.ferry.format.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The requests of one client waiting for their replies, by correlation id: at most {@code maxPending} at once (a
 * request beyond fails at once), each until its reply is pushed, its deadline passes ({@link #expire()}, measured
 * with the client's {@link Clock}), its send fails, or the client closes. A pending request holds only its future.
 *
 * <p>Thread-safe: requests are added on callers' threads, replies arrive on the client's scheduler, expiry runs
 * there too.
 */
final class PendingReplies {
    private static final System.Logger LOG = System.getLogger(PendingReplies.class.getName());

    private record Pending(CompletableFuture<ReceivedMessage> reply, long deadlineNanos, Duration timeout) {
    }

    private final Clock clock;
    private final int maxPending;
    private final Map<String, Pending> pending = new ConcurrentHashMap<>();
    private final AtomicInteger size = new AtomicInteger();
    private volatile boolean closed;

    PendingReplies(Clock clock, int maxPending) {
        this.clock = clock;
        this.maxPending = maxPending;
    }

    /**
     * Waits for the reply to the request {@code correlationId} for {@code timeout}; the future fails at once when as
     * many requests wait already, or the client is closed.
     */
    CompletableFuture<ReceivedMessage> await(String correlationId, Duration timeout) {
        if (closed) {
            return CompletableFuture.failedFuture(new FerryException("the client is closed"));
        }
        if (size.incrementAndGet() > maxPending) {
            size.decrementAndGet();
            return CompletableFuture.failedFuture(new RetriableException("the client already waits for "
                    + maxPending + " replies, its most; try again later"));
        }
        Pending request = new Pending(new CompletableFuture<>(), clock.nanos() + timeout.toNanos(), timeout);
        pending.put(correlationId, request);
        return request.reply();
    }

    /** Completes the request a pushed reply answers; a reply to no pending request is dropped. */
    boolean complete(String correlationId, ReceivedMessage reply) {
        Pending request = correlationId == null ? null : remove(correlationId);
        if (request == null) {
            LOG.log(System.Logger.Level.DEBUG, "a reply with correlation id {0} matches no waiting request "
                    + "(timed out or unknown); dropped", correlationId);
            return false;
        }
        request.reply().complete(reply);
        return true;
    }

    /** Fails the request (its send failed): no reply will come. */
    void fail(String correlationId, Throwable failure) {
        Pending request = remove(correlationId);
        if (request != null) {
            request.reply().completeExceptionally(failure);
        }
    }

    /** Fails every request whose deadline has passed; returns how many. */
    int expire() {
        long now = clock.nanos();
        int expired = 0;
        for (Map.Entry<String, Pending> entry : pending.entrySet()) {
            Pending request = entry.getValue();
            if (now - request.deadlineNanos() >= 0 && pending.remove(entry.getKey(), request)) {
                size.decrementAndGet();
                request.reply().completeExceptionally(new RetriableException("no reply to request "
                        + entry.getKey() + " within " + request.timeout().toMillis() + " ms"));
                expired++;
            }
        }
        return expired;
    }

    /** Fails every waiting request: the client closes. */
    void close() {
        closed = true;
        for (String correlationId : pending.keySet()) {
            fail(correlationId, new FerryException("the client closed before the reply to request " + correlationId
                    + " came"));
        }
    }

    int size() {
        return size.get();
    }

    private Pending remove(String correlationId) {
        Pending request = pending.remove(correlationId);
        if (request != null) {
            size.decrementAndGet();
        }
        return request;
    }
}
