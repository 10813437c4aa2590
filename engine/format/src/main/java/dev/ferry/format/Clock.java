package dev.ferry.format;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;

/**
 * The engine's one source of time, injected into every part that reads it: wall-clock milliseconds for what is
 * stored or shown (born and store timestamps, expiry, daily totals) and monotonic nanoseconds for spans and
 * deadlines, which a change of the system clock must not stretch or cut. Only a composition root calls
 * {@link #system()}; tests drive a manual clock. Implementations are thread-safe.
 */
public interface Clock {
    /** Milliseconds since the epoch, as {@link System#currentTimeMillis()}: may jump when the system clock is set. */
    long millis();

    /** Nanoseconds from an arbitrary origin, as {@link System#nanoTime()}: only a difference of two means something. */
    long nanos();

    /** {@link #millis()} as an instant. */
    default Instant instant() {
        return Instant.ofEpochMilli(millis());
    }

    /** {@link #millis()} as a date and time in {@code zone}. */
    default ZonedDateTime at(ZoneId zone) {
        return instant().atZone(zone);
    }

    /** The system's clocks. */
    static Clock system() {
        return SystemClock.INSTANCE;
    }
}
