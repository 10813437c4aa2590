package dev.ferry.format;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A {@link Clock} that moves only when a test says: {@link #advance} moves both readings, {@link #setMillis} sets the
 * wall clock alone (as an operator setting the system clock would). The monotonic reading starts far from zero so
 * that code which takes it for an absolute value fails here. Thread-safe; shared with other modules' tests through
 * this module's test jar.
 */
public final class ManualClock implements Clock {
    /** Where a clock made without a start stands: a fixed instant, so that a test's dates do not depend on today. */
    public static final Instant DEFAULT_START = Instant.parse("2026-12-01T12:00:00Z");
    private static final long NANOS_ORIGIN = 7_000_000_000_000L;

    private long millis;
    private long nanos = NANOS_ORIGIN;

    public ManualClock() {
        this(DEFAULT_START);
    }

    public ManualClock(Instant start) {
        this(start.toEpochMilli());
    }

    public ManualClock(long startMillis) {
        this.millis = startMillis;
    }

    public synchronized void advance(Duration duration) {
        Objects.requireNonNull(duration, "duration");
        if (duration.isNegative()) {
            throw new IllegalArgumentException("a clock advances, by " + duration + " it would go back");
        }
        nanos += duration.toNanos();
        millis += duration.toMillis();
    }

    public void advanceMillis(long delta) {
        advance(Duration.ofMillis(delta));
    }

    public synchronized void setMillis(long epochMillis) {
        this.millis = epochMillis;
    }

    @Override
    public synchronized long millis() {
        return millis;
    }

    @Override
    public synchronized long nanos() {
        return nanos;
    }

    @Override
    public String toString() {
        return "ManualClock[" + instant() + "]";
    }
}
