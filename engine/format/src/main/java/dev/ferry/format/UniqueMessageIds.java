package dev.ferry.format;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The unique message ids producers put in {@code UNIQ_KEY}, in RocketMQ's layout: client address (4 or 16 bytes),
 * process id (2), a per-generator salt (4), milliseconds since the start of the current month (4), counter (2), as
 * upper-case hex. The month's start is taken in a time zone, as Apache takes it in the default one, so that the time
 * an id was made can be read back from it ({@link #nearlyTime}). One per client; thread-safe.
 */
public final class UniqueMessageIds {
    private static final HexFormat HEX = HexFormat.of().withUpperCase();

    private final byte[] prefix;
    private final Clock clock;
    private final ZoneId zone;
    private final AtomicInteger counter = new AtomicInteger();
    private volatile Month month;

    /** The month the ids are counted in: its start and the next month's start, in epoch milliseconds. */
    private record Month(long start, long next) {
        static Month of(long millis, ZoneId zone) {
            LocalDate first = Instant.ofEpochMilli(millis).atZone(zone).toLocalDate().withDayOfMonth(1);
            return new Month(first.atStartOfDay(zone).toInstant().toEpochMilli(),
                    first.plusMonths(1).atStartOfDay(zone).toInstant().toEpochMilli());
        }
    }

    /**
     * @param address the client's IPv4 (4 bytes) or IPv6 (16 bytes) address
     * @param pid     the process id; its low 16 bits are used
     * @param salt    distinguishes generators of one process
     */
    public UniqueMessageIds(byte[] address, long pid, int salt, Clock clock, ZoneId zone) {
        if (address.length != 4 && address.length != 16) {
            throw new IllegalArgumentException("an address has 4 or 16 bytes, not " + address.length);
        }
        this.prefix = ByteBuffer.allocate(address.length + 6).put(address).putShort((short) pid).putInt(salt).array();
        this.clock = clock;
        this.zone = zone;
        this.month = Month.of(clock.millis(), zone);
    }

    public String next() {
        long now = clock.millis();
        Month current = month;
        if (now >= current.next()) {
            current = Month.of(now, zone);
            month = current;
        }
        // a clock stepped back a little before the month's start reads as its start, as Apache's does
        int span = (int) Math.max(0, now - current.start());
        ByteBuffer id = ByteBuffer.allocate(prefix.length + 6).put(prefix).putInt(span)
                .putShort((short) counter.getAndIncrement());
        return HEX.formatHex(id.array());
    }

    /**
     * When {@code id} was made, as Apache reads it: its milliseconds counted from the start of {@code now}'s month,
     * or of the month before when that would lie in the future.
     *
     * @throws IllegalArgumentException when {@code id} is not 32 or 56 hex characters
     */
    public static Instant nearlyTime(String id, Instant now, ZoneId zone) {
        if (id.length() != 32 && id.length() != 56) {
            throw new IllegalArgumentException("a unique message id has 32 or 56 hex characters: " + id);
        }
        byte[] bytes;
        try {
            bytes = HEX.parseHex(id);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("a unique message id is hex: " + id, e);
        }
        long span = Integer.toUnsignedLong(ByteBuffer.wrap(bytes).getInt(bytes.length - 6));
        ZonedDateTime monthStart = now.atZone(zone).toLocalDate().withDayOfMonth(1).atStartOfDay(zone);
        Instant made = monthStart.toInstant().plusMillis(span);
        return made.isBefore(now) ? made : monthStart.minusMonths(1).toInstant().plusMillis(span);
    }
}
