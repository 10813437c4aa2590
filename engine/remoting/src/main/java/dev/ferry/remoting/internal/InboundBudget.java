package dev.ferry.remoting.internal;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Bounds the memory that requests coming in hold: a frame's bytes are reserved when its length prefix arrives, before
 * they are read, and released when its request has been processed. A connection whose next frame does not fit, in
 * its own share or in the total, stops being read until earlier requests have been processed, so a client sending
 * faster than the server works, or many clients each sending a huge frame, slow down instead of exhausting the heap.
 *
 * <p>Thread-safe.
 */
public final class InboundBudget {
    /** A budget that never refuses (a client's own connections). */
    public static final InboundBudget UNLIMITED = new InboundBudget(Long.MAX_VALUE, Long.MAX_VALUE);

    private final long total;
    private final long perConnection;
    private final AtomicLong used = new AtomicLong();

    public InboundBudget(long total, long perConnection) {
        this.total = total;
        this.perConnection = perConnection;
    }

    /** Bytes held by requests now, over every connection. */
    public long used() {
        return used.get();
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
            long now;
            do {
                now = used.get();
                if (now > 0 && now + bytes > total) {
                    return null;
                }
            } while (!used.compareAndSet(now, now + bytes));
            held.addAndGet(bytes);
            return new Reservation(this, bytes);
        }

        long held() {
            return held.get();
        }

        private void release(long bytes) {
            held.addAndGet(-bytes);
            used.addAndGet(-bytes);
        }
    }

    /** Bytes reserved for one frame; released once, when its request is done. */
    public static final class Reservation {
        static final Reservation NONE = new Reservation(null, 0);

        private final Connection connection;
        private final long bytes;
        private final java.util.concurrent.atomic.AtomicBoolean released = new java.util.concurrent.atomic.AtomicBoolean();

        private Reservation(Connection connection, long bytes) {
            this.connection = connection;
            this.bytes = bytes;
        }

        public void release() {
            if (connection != null && released.compareAndSet(false, true)) {
                connection.release(bytes);
            }
        }
    }
}
