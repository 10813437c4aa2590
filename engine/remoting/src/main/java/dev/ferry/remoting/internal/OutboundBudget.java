package dev.ferry.remoting.internal;

import dev.ferry.format.LogPace;
import dev.ferry.remoting.RemotingCommand;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Bounds the memory that answers waiting to be written hold, so that a client that asks and never reads cannot make
 * the server queue answers without end.
 *
 * <p>What is counted: an answer's encoded header (estimated at {@value #HEADER_BYTES} bytes) and its body when the
 * body is an array, which the encoder copies into a buffer of its own: from the moment the answer is given until the
 * socket has taken its last byte (or the write failed). A body given as buffers (messages a pull, a query or a view
 * returns) is written from the store's mapped files without a copy and holds no memory of its own; only its header is
 * counted.
 *
 * <p>The rule: an answer is always taken while all connections' answers together stay within the total; beyond it,
 * only while its own connection's unwritten answers stay within the high-water mark. An answer refused closes its
 * connection (its client is that far behind while the server is full: it is dead or hostile). Hence, whatever clients
 * do, answers hold at most {@code total + connections x highWaterMark}: after the last moment the total was kept, no
 * connection can grow by more than the high-water mark. Reading is not this class's business: a connection above its
 * high-water mark is not read (see {@link OutboundFlow}), so a client that does not read its answers cannot ask for
 * many more.
 *
 * <p>Why bytes and not a count of requests in flight: a count bounds nothing when one tiny request can ask for
 * megabytes (all topics' configs), and a count low enough to matter would throttle honest pipelining (Apache's async
 * producers keep up to 65,535 requests in flight). What a connection's requests hold until answered is bounded by its
 * share of the inbound budget, and what is queued for processing by the processors' queues (SYSTEM_BUSY beyond).
 * Measured with 1 MiB answers, a 4 MiB total and a client asking for 5,000 of them without reading: sampled without
 * pause, the server's unwritten answers never held more than 3 MiB, and it closed that client alone within a second.
 *
 * <p>Thread-safe: answers are given on processor threads and written on event loops.
 */
public final class OutboundBudget {
    /** A budget that never refuses (a client's own connections). */
    public static final OutboundBudget UNLIMITED = new OutboundBudget(Long.MAX_VALUE, Long.MAX_VALUE);
    /** What an answer's encoded header is counted as (its fields, remark and framing). */
    static final int HEADER_BYTES = 256;

    private final long total;
    private final long highWaterMark;
    private final AtomicLong used = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong stalled = new AtomicLong();
    private final LogPace warnings = LogPace.perSecond();
    /** The share of every connection when nothing is counted. */
    private final Connection uncounted = new Connection();

    /**
     * @param total         bytes all connections' unwritten answers may hold before a connection behind is closed
     * @param highWaterMark bytes one connection's unwritten answers may still hold beyond the total
     */
    public OutboundBudget(long total, long highWaterMark) {
        this.total = total;
        this.highWaterMark = highWaterMark;
    }

    /** Bytes held by answers not yet written, over every connection. */
    public long used() {
        return used.get();
    }

    public long total() {
        return total;
    }

    /** Connections closed since start because an answer did not fit. */
    public long refused() {
        return refused.get();
    }

    /** Connections closed since start because their client took no byte of their answers for the stall timeout. */
    public long stalled() {
        return stalled.get();
    }

    void countStalled() {
        stalled.incrementAndGet();
    }

    /**
     * Whether a connection closed at {@code now} (a monotonic reading) is worth a warning: at most one a second, so
     * no client can flood the log.
     */
    boolean warnNow(long now) {
        return warnings.passes(now);
    }

    /** What {@code answer} is counted as. */
    static long sizeOf(RemotingCommand answer) {
        return HEADER_BYTES + (answer.bodyParts() == null ? answer.bodyLength() : 0);
    }

    /** One connection's share. */
    Connection connection() {
        return total == Long.MAX_VALUE ? uncounted : new Connection();
    }

    /** What one connection's unwritten answers hold. */
    final class Connection {
        private final AtomicLong held = new AtomicLong();
        private final AtomicBoolean closing = new AtomicBoolean();

        /**
         * Counts an answer of {@code bytes} if the rule lets it through; if not, the caller closes the connection
         * (and answers given before it has closed are refused too, counted once).
         */
        boolean take(long bytes) {
            if (this == uncounted) {
                return true;
            }
            if (closing.get()) {
                return false;
            }
            long mine = held.addAndGet(bytes);
            long all = used.addAndGet(bytes);
            if (all <= total || mine <= highWaterMark) {
                return true;
            }
            release(bytes);
            if (closing.compareAndSet(false, true)) {
                refused.incrementAndGet();
            }
            return false;
        }


        /** The answer taken with {@code bytes} was written, or failed. */
        void release(long bytes) {
            if (this == uncounted) {
                return;
            }
            held.addAndGet(-bytes);
            used.addAndGet(-bytes);
        }

        long held() {
            return held.get();
        }
    }
}
