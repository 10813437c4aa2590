package dev.ferry.server.timer;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * One entry of the {@link TimerLog}: a timer message's place in the commit log, the slot it waits in and the time it
 * was asked for. Entries of one slot are chained newest to oldest through {@link #previous}.
 *
 * @param kind        what firing the entry does
 * @param slotMs      the slot the entry is chained in (a multiple of the precision)
 * @param fireMs      the time the message carries ({@code TIMER_OUT_MS}): beyond the ring, a {@link Kind#ROLL}
 *                    entry waits in an earlier slot and is put in this one's slot when that fires
 * @param source      the timer message's commit-log offset
 * @param sourceSize  its size in bytes
 * @param previous    the log position of the slot's previous entry, or -1
 * @param queueOffset the timer message's offset in the timer topic's queue
 * @param rolled      put in its slot by a {@link Kind#ROLL} entry's firing, not read from the queue
 */
record TimerRecord(Kind kind, long slotMs, long fireMs, long source, int sourceSize, long previous, long queueOffset,
                   boolean rolled) {
    /** Bytes per entry: kind, size, five longs, a CRC-32C of what comes before it, padding. */
    static final int SIZE = 56;
    private static final int CHECKED = 48;
    private static final int ROLLED = 0x100;

    enum Kind {
        /** Deliver the message to its real topic. */
        DELIVER(1),
        /** Cancel the pending message the source names ({@code TIMER_DEL_UNIQKEY}) in the same slot. */
        CANCEL(2),
        /** Not due yet: put the entry again in the slot of its fire time. */
        ROLL(3);

        final int code;

        Kind(int code) {
            this.code = code;
        }

        static Kind of(int code) {
            for (Kind kind : values()) {
                if (kind.code == code) {
                    return kind;
                }
            }
            return null;
        }
    }

    void writeTo(ByteBuffer buffer) {
        int start = buffer.position();
        buffer.putInt(kind.code | (rolled ? ROLLED : 0)).putInt(sourceSize).putLong(slotMs).putLong(fireMs).putLong(source).putLong(previous)
                .putLong(queueOffset);
        buffer.putInt(crc(buffer, start)).putInt(0);
    }

    /** The entry at the buffer's position, or null when those bytes are not a whole, intact entry. */
    static TimerRecord readFrom(ByteBuffer buffer) {
        int start = buffer.position();
        if (buffer.remaining() < SIZE) {
            return null;
        }
        int code = buffer.getInt(start);
        Kind kind = Kind.of(code & ~ROLLED);
        int size = buffer.getInt(start + 4);
        if (kind == null || size <= 0 || buffer.getInt(start + CHECKED) != crc(buffer, start)) {
            return null;
        }
        TimerRecord read = new TimerRecord(kind, buffer.getLong(start + 8), buffer.getLong(start + 16),
                buffer.getLong(start + 24), size, buffer.getLong(start + 32), buffer.getLong(start + 40),
                (code & ROLLED) != 0);
        buffer.position(start + SIZE);
        return read;
    }

    private static int crc(ByteBuffer buffer, int start) {
        CRC32C crc = new CRC32C();
        crc.update(buffer.duplicate().position(start).limit(start + CHECKED));
        return (int) crc.getValue();
    }

    TimerRecord withPrevious(long value) {
        return new TimerRecord(kind, slotMs, fireMs, source, sourceSize, value, queueOffset, rolled);
    }

    TimerRecord inSlot(Kind newKind, long newSlotMs) {
        return new TimerRecord(newKind, newSlotMs, fireMs, source, sourceSize, -1, queueOffset, rolled);
    }
}
