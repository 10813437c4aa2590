package dev.ferry.remoting.internal;

import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RemotingException;
import dev.ferry.remoting.RemotingTimeoutException;
import io.netty.channel.Channel;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Requests sent and not yet answered, keyed by opaque. A response, a timeout found by the
 * periodic {@link #expire(long)} scan, or the loss of the connection ends each entry, exactly
 * once; ending it releases its concurrency permit.
 *
 * <p>Thread-safe: event loops complete entries, callers register them, the housekeeping
 * thread expires them.
 */
public final class PendingRequests {
    private static final System.Logger LOG = System.getLogger(PendingRequests.class.getName());

    private final Map<Integer, Entry> entries = new ConcurrentHashMap<>();

    /**
     * Registers a request.
     *
     * @param completer where the future is completed; {@code null} completes it on the calling
     *                  thread (for synchronous calls, whose waiter runs no callback)
     * @param release   returns the request's permit; may be {@code null}
     */
    Entry register(int opaque, Channel channel, long deadlineNanos, Executor completer, Runnable release) {
        Entry entry = new Entry(opaque, channel, deadlineNanos, completer, release);
        entries.put(opaque, entry);
        return entry;
    }

    /** Completes the request the response answers; a response nobody waits for is logged and dropped. */
    void complete(RemotingCommand response) {
        Entry entry = entries.remove(response.opaque());
        if (entry == null) {
            LOG.log(System.Logger.Level.DEBUG, "dropping a response nobody waits for (late or unknown): {0}", response);
            return;
        }
        entry.finish(response, null);
    }

    /** Fails one request, if it is still pending. */
    void fail(int opaque, RemotingException cause) {
        Entry entry = entries.remove(opaque);
        if (entry != null) {
            entry.finish(null, cause);
        }
    }

    /** Fails the requests whose deadline has passed. */
    public void expire(long nowNanos) {
        for (Iterator<Entry> it = entries.values().iterator(); it.hasNext(); ) {
            Entry entry = it.next();
            if (nowNanos - entry.deadlineNanos >= 0 && entries.remove(entry.opaque, entry)) {
                entry.finish(null, new RemotingTimeoutException("no response to request " + entry.opaque
                        + " on " + entry.channel.remoteAddress() + " within its timeout"));
            }
        }
    }

    /** Fails the requests sent over a connection that closed. */
    void failChannel(Channel channel, RemotingException cause) {
        for (Entry entry : entries.values()) {
            if (entry.channel == channel && entries.remove(entry.opaque, entry)) {
                entry.finish(null, cause);
            }
        }
    }

    /** Fails every pending request (at shutdown). */
    void failAll(RemotingException cause) {
        for (Entry entry : entries.values()) {
            if (entries.remove(entry.opaque, entry)) {
                entry.finish(null, cause);
            }
        }
    }

    int size() {
        return entries.size();
    }

    /** One pending request. */
    static final class Entry {
        final int opaque;
        final Channel channel;
        final long deadlineNanos;
        final CompletableFuture<RemotingCommand> future = new CompletableFuture<>();
        private final Executor completer;
        private final Runnable release;
        private final AtomicBoolean finished = new AtomicBoolean();

        Entry(int opaque, Channel channel, long deadlineNanos, Executor completer, Runnable release) {
            this.opaque = opaque;
            this.channel = channel;
            this.deadlineNanos = deadlineNanos;
            this.completer = completer;
            this.release = release;
        }

        void finish(RemotingCommand response, RemotingException failure) {
            if (!finished.compareAndSet(false, true)) {
                return;
            }
            if (release != null) {
                release.run();
            }
            if (completer == null) {
                completeNow(response, failure);
                return;
            }
            try {
                completer.execute(() -> completeNow(response, failure));
            } catch (RejectedExecutionException e) {
                completeNow(response, failure);
            }
        }

        private void completeNow(RemotingCommand response, RemotingException failure) {
            if (failure != null) {
                future.completeExceptionally(failure);
            } else {
                future.complete(response);
            }
        }
    }
}
