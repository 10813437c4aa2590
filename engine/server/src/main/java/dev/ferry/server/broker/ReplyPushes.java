package dev.ferry.server.broker;

import dev.ferry.remoting.RemoteChannel;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.ResponseCode;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Replies on their way to their requesters' connections, and what became of them. A reply is pushed
 * (PUSH_REPLY_MESSAGE_TO_CLIENT) and never stored: one whose requester has no live connection here, whose requester's
 * client does not take it within {@link #PUSH_TIMEOUT}, or that would take the pushes in flight beyond
 * {@code maxBytesInFlight}, is dropped and counted by {@link Drop reason}, and its replier told why.
 *
 * <p>Thread-safe: pushes start on the client executor and complete on the remoting's callback threads.
 */
final class ReplyPushes {
    /** How long a requester's client has to take a reply: Apache's broker waits as long for its clients' answers. */
    static final Duration PUSH_TIMEOUT = Duration.ofSeconds(3);
    /** What one push is counted as besides its body and properties: its header fields and framing. */
    private static final int HEADER_BYTES = 256;

    /** Why a reply was dropped; the label is what metrics show. */
    enum Drop {
        /** No live connection of the client the reply names: it has gone, or never talked to this broker. */
        REQUESTER_GONE("requester_gone"),
        /** The requester's client refused the push, did not answer in time, or its connection failed. */
        PUSH_FAILED("push_failed"),
        /** Pushes in flight already hold as many bytes as allowed. */
        BUSY("busy");

        private final String label;

        Drop(String label) {
            this.label = label;
        }

        String label() {
            return label;
        }
    }

    /** What became of one reply: pushed, or dropped for {@code drop} with the replier's response code and remark. */
    record Outcome(Drop drop, int code, String remark) {
        static final Outcome PUSHED = new Outcome(null, ResponseCode.SUCCESS, null);

        boolean pushed() {
            return drop == null;
        }
    }

    private final long maxBytesInFlight;
    private final AtomicLong bytesInFlight = new AtomicLong();
    private final AtomicLong pushed = new AtomicLong();
    private final Map<Drop, AtomicLong> dropped = new EnumMap<>(Drop.class);

    ReplyPushes(long maxBytesInFlight) {
        this.maxBytesInFlight = maxBytesInFlight;
        for (Drop drop : Drop.values()) {
            dropped.put(drop, new AtomicLong());
        }
    }

    /**
     * Pushes {@code push} to {@code requester}'s connection, if it has one here; completes (never exceptionally) with
     * the outcome. {@code propertiesChars} is the length of the properties its header carries. The remarks are
     * Apache's.
     */
    CompletableFuture<Outcome> push(String requester, Optional<RemoteChannel> connection, RemotingCommand push,
                                    int propertiesChars) {
        if (connection.isEmpty()) {
            return CompletableFuture.completedFuture(drop(Drop.REQUESTER_GONE, ResponseCode.SYSTEM_ERROR,
                    "push reply message fail, channel of <" + requester + "> not found."));
        }
        long bytes = HEADER_BYTES + push.bodyLength() + 2L * propertiesChars;
        if (bytesInFlight.addAndGet(bytes) > maxBytesInFlight) {
            bytesInFlight.addAndGet(-bytes);
            return CompletableFuture.completedFuture(drop(Drop.BUSY, ResponseCode.SYSTEM_BUSY,
                    "[REPLY]too many replies being pushed, " + maxBytesInFlight + " bytes in flight at most; try later"));
        }
        CompletableFuture<RemotingCommand> answered;
        try {
            answered = connection.get().invokeAsync(push, PUSH_TIMEOUT);
        } catch (RuntimeException e) {
            answered = CompletableFuture.failedFuture(e);
        }
        return answered.handle((answer, failure) -> {
            bytesInFlight.addAndGet(-bytes);
            if (failure == null && answer.code() == ResponseCode.SUCCESS) {
                pushed.incrementAndGet();
                return Outcome.PUSHED;
            }
            return drop(Drop.PUSH_FAILED, ResponseCode.SYSTEM_ERROR, "push reply message to " + requester + "fail.");
        });
    }

    private Outcome drop(Drop reason, int code, String remark) {
        dropped.get(reason).incrementAndGet();
        return new Outcome(reason, code, remark);
    }

    /** Replies pushed to their requesters since start. */
    long pushed() {
        return pushed.get();
    }

    /** Replies dropped since start, by reason label. */
    Map<String, Long> dropped() {
        Map<String, Long> counts = new java.util.LinkedHashMap<>();
        dropped.forEach((reason, count) -> counts.put(reason.label(), count.get()));
        return counts;
    }

    /** Bytes of pushes not yet answered by their requesters' clients. */
    long bytesInFlight() {
        return bytesInFlight.get();
    }
}
