package dev.ferry.server.timer;

import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * The body of GET_TIMER_CHECK_POINT in Apache's layout (seven longs, 56 bytes): the time firing has reached, a log
 * position, the timer queue offsets indexed, and a data version. Ferry puts in the log position's place the
 * commit-log offset from which a slave, once promoted, finds its master's deliveries ({@link
 * TimerProgress#slotStartOffset()}); an Apache slave reads only the time and queue offset from it.
 */
public final class TimerCheckpointBody {
    static final int SIZE = 56;

    private TimerCheckpointBody() {
    }

    public static byte[] encode(TimerProgress progress, long nextQueueOffset, long nowMillis) {
        return ByteBuffer.allocate(SIZE).putLong(progress.cursorMs()).putLong(progress.slotStartOffset())
                .putLong(nextQueueOffset).putLong(nextQueueOffset).putLong(0).putLong(nowMillis).putLong(0).array();
    }

    /** The master's progress in a body, or empty when the body is not one. */
    public static Optional<TimerProgress> decode(byte[] body) {
        if (body == null || body.length != SIZE) {
            return Optional.empty();
        }
        ByteBuffer buffer = ByteBuffer.wrap(body);
        long cursor = buffer.getLong();
        long start = buffer.getLong();
        if (cursor <= 0 || start < 0) {
            return Optional.empty();
        }
        return Optional.of(new TimerProgress(cursor, -1, start, start));
    }
}
