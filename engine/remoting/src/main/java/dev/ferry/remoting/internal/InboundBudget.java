package dev.ferry.remoting.internal;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Bounds the memory that requests coming in hold: a frame's bytes are reserved when its length prefix arrives, before
 * they are read, and released when its request has been processed. A connection whose next frame does not fit, in
 * its own share or in the total, stops being read until earlier requests have been processed, so a client sending
 * faster than the server works, or many clients each sending a huge frame, slow down instead of exhausting the heap.
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

        /** Reserves {@code bytes} for a frame if they fit; returns the reservation or {@code null}. */
        Reservation tryReserve(long bytes) {
            if (total == Long.MAX_VALUE) {
                return Reservation.NONE;
            }
            long mine = held.get();
            if (mine > 0 && mine + bytes > perConnection) {
                return null; // a lone frame always fits its connection's share: the server checks the share >= a frame
            }
            boolean small = bytes <= SMALL_FRAME;
            AtomicLong pool = small ? usedBySmall : used;
            long limit = small ? smallTotal : total;
            long now;
            do {
                now = pool.get();
                if (now > 0 && now + bytes > limit) {
                    return null;
                }
            } while (!pool.compareAndSet(now, now + bytes));
            held.addAndGet(bytes);
            return new Reservation(this, bytes, pool);
        }

        long held() {
            return held.get();
        }

        private void release(long bytes, AtomicLong pool) {
            held.addAndGet(-bytes);
            pool.addAndGet(-bytes);
        }
    }

    /** Bytes reserved for one frame; released once, when its request is done. */
    public static final class Reservation {
        static final Reservation NONE = new Reservation(null, 0, null);

        private final Connection connection;
        private final long bytes;
        private final AtomicLong pool;
        private final AtomicBoolean released = new AtomicBoolean();

        private Reservation(Connection connection, long bytes, AtomicLong pool) {
            this.connection = connection;
            this.bytes = bytes;
            this.pool = pool;
        }

        public void release() {
            if (connection != null && released.compareAndSet(false, true)) {
                connection.release(bytes, pool);
            }
        }
    }
}
