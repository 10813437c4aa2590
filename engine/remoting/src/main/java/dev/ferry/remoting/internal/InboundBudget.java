package dev.ferry.remoting.internal;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Bounds the memory that requests coming in hold: a frame's bytes are reserved as they arrive (never the length its
 * prefix announces, which would let a client that sends a prefix and nothing more hold what it never sent) and
 * released when its request has been processed. A connection whose bytes do not fit, in its own share or in the
 * total, stops being read until earlier requests have been processed, so a client sending faster than the server
 * works, or many clients each sending a huge frame, slow down instead of exhausting the heap.
 *
 * <p>Frames of at most {@value #SMALL_FRAME} bytes (heartbeats, pulls, offsets, most sends) draw on a pool of their
 * own, so that clients hogging the large pool (huge frames started and left hanging until their timeout, a flood of
 * them) cannot stop consumers and ordinary producers.
 *
 * <p>Thread-safe.
 */
public final class InboundBudget {
    /** A budget that never refuses (a client's own connections). */
    public static final InboundBudget UNLIMITED = new InboundBudget(Long.MAX_VALUE, Long.MAX_VALUE);
    /** Frames up to this size draw on the small-frame pool. */
    public static final int SMALL_FRAME = 64 * 1024;

    private final long total;
    private final long smallTotal;
    private final long perConnection;
    private final AtomicLong used = new AtomicLong();
    private final AtomicLong usedBySmall = new AtomicLong();

    /** @param total bytes large frames may hold; small ones have a quarter of it (at least 16 MiB) besides */
    public InboundBudget(long total, long perConnection) {
        this.total = total;
        this.smallTotal = total == Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(16L << 20, total / 4);
        this.perConnection = perConnection;
    }

    /** Bytes held by requests now, over every connection. */
    public long used() {
        return used.get() + usedBySmall.get();
    }

    /** The most bytes requests can hold: both pools. */
    public long capacity() {
        return total == Long.MAX_VALUE ? Long.MAX_VALUE : total + smallTotal;
    }

    public long total() {
        return total;
    }

    /** One connection's share. */
    Connection connection() {
        return new Connection();
    }

    /** What one connection holds; the reservations of its frames. */
    final class Connection {
        private final AtomicLong held = new AtomicLong();

        /**
         * Opens the reservation of a frame of {@code frameBytes} (its pool is chosen by that length) holding nothing
         * yet; {@link Reservation#grow} adds its bytes as they arrive.
         */
        Reservation open(long frameBytes) {
            if (total == Long.MAX_VALUE) {
                return Reservation.NONE;
            }
            boolean small = frameBytes <= SMALL_FRAME;
            return new Reservation(this, small ? usedBySmall : used, small ? smallTotal : total);
        }

        /** Adds {@code more} bytes to {@code frame} if they fit. */
        private boolean grow(Reservation frame, long more) {
            long mine = held.get();
            if (mine > frame.bytes && mine + more > perConnection) {
                return false; // a lone frame always fits its connection's share: the server checks the share >= a frame
            }
            long now;
            do {
                now = frame.pool.get();
                if (now > frame.bytes && now + more > frame.limit) {
                    return false; // and a lone frame its pool, which is at least a frame too
                }
            } while (!frame.pool.compareAndSet(now, now + more));
            held.addAndGet(more);
            return true;
        }

        long held() {
            return held.get();
        }

        private void release(long bytes, AtomicLong pool) {
            held.addAndGet(-bytes);
            pool.addAndGet(-bytes);
        }
    }

    /**
     * Bytes reserved for one frame: grown on its connection's event loop while the frame arrives, then handed on with
     * its request and released once, when the request is done.
     */
    public static final class Reservation {
        static final Reservation NONE = new Reservation(null, null, Long.MAX_VALUE);

        private final Connection connection;
        private final AtomicLong pool;
        private final long limit;
        private final AtomicBoolean released = new AtomicBoolean();
        private long bytes;

        private Reservation(Connection connection, AtomicLong pool, long limit) {
            this.connection = connection;
            this.pool = pool;
            this.limit = limit;
        }

        /** Bytes held now. */
        long bytes() {
            return bytes;
        }

        /** Holds {@code total} bytes from now on if the growth fits; returns whether it does. */
        boolean growTo(long total) {
            if (connection == null || total <= bytes) {
                return true;
            }
            if (!connection.grow(this, total - bytes)) {
                return false;
            }
            bytes = total;
            return true;
        }

        public void release() {
            if (connection != null && released.compareAndSet(false, true)) {
                connection.release(bytes, pool);
            }
        }
    }
}
