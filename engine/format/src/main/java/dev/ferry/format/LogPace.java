package dev.ferry.format;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Lets one line of a repeated warning through per interval, so that a flood (bad requests, refused connections,
 * refused locks) cannot flood the log: the occurrence that finds the interval passed logs at WARNING, the others at
 * DEBUG or not at all. The first occurrence always passes. Lock-free; one of several threads that arrive together
 * passes.
 *
 * <p>Callers pass the monotonic reading of their {@link Clock}, so that a test moves it with a manual clock.
 */
public final class LogPace {
    private static final long NEVER = Long.MIN_VALUE;

    private final long intervalNanos;
    private final AtomicLong lastPassed = new AtomicLong(NEVER);

    public LogPace(Duration interval) {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("a log pace's interval must be positive, not " + interval);
        }
        this.intervalNanos = interval.toNanos();
    }

    /** One line a second: the pace of every warning a peer can provoke. */
    public static LogPace perSecond() {
        return new LogPace(Duration.ofSeconds(1));
    }

    /** Whether the occurrence at {@code nowNanos} (a {@link Clock#nanos()} reading) is the one to log in full. */
    public boolean passes(long nowNanos) {
        long last = lastPassed.get();
        return (last == NEVER || nowNanos - last >= intervalNanos) && lastPassed.compareAndSet(last, nowNanos);
    }

    /** {@link Level#WARNING} for the occurrence that {@linkplain #passes passes}, {@link Level#DEBUG} for the rest. */
    public Level level(long nowNanos) {
        return passes(nowNanos) ? Level.WARNING : Level.DEBUG;
    }
}
