package dev.ferry.server.timer;

/**
 * How a broker holds timer messages, under Apache's {@code MessageStoreConfig} names.
 *
 * @param enabled            {@code timerWheelEnable}: when false a timer message is refused, as Apache's broker does
 * @param precisionMs        {@code timerPrecisionMs}: timers fire at the first multiple of it at or after their time
 * @param maxDelaySec        {@code timerMaxDelaySec}: how far ahead a timer may be set
 * @param congestNumEachSlot {@code timerCongestNumEachSlot}: beyond this many timers for one slot sends are refused
 *                           at random, beyond twice it always
 */
public record TimerSettings(boolean enabled, int precisionMs, long maxDelaySec, int congestNumEachSlot) {
    /** Apache 5.3.3's defaults: on, one second, three days, no congestion limit. */
    public static TimerSettings defaults() {
        return new TimerSettings(true, 1000, 3L * 24 * 3600, Integer.MAX_VALUE);
    }

    public TimerSettings {
        if (precisionMs < 10 || precisionMs > 60_000 || 60_000 % precisionMs != 0) {
            throw new IllegalArgumentException("timerPrecisionMs = " + precisionMs
                    + ": expected a divisor of 60000 between 10 and 60000 (default 1000)");
        }
        if (maxDelaySec <= 0 || maxDelaySec > 365L * 24 * 3600) {
            throw new IllegalArgumentException("timerMaxDelaySec = " + maxDelaySec
                    + ": expected from 1 to 31536000 (a year; default 259200, three days)");
        }
        if (congestNumEachSlot <= 0) {
            throw new IllegalArgumentException("timerCongestNumEachSlot = " + congestNumEachSlot
                    + ": expected a positive number");
        }
    }

    public TimerSettings withEnabled(boolean value) {
        return new TimerSettings(value, precisionMs, maxDelaySec, congestNumEachSlot);
    }

    public TimerSettings withPrecisionMs(int value) {
        return new TimerSettings(enabled, value, maxDelaySec, congestNumEachSlot);
    }

    public TimerSettings withMaxDelaySec(long value) {
        return new TimerSettings(enabled, precisionMs, value, congestNumEachSlot);
    }

    public TimerSettings withCongestNumEachSlot(int value) {
        return new TimerSettings(enabled, precisionMs, maxDelaySec, value);
    }

    /** The slot a timer asked for {@code deliverMs} waits in, as Apache rounds it ({@code TIMER_OUT_MS}). */
    long slotOf(long deliverMs) {
        return deliverMs % precisionMs == 0 ? deliverMs - precisionMs : deliverMs / precisionMs * precisionMs;
    }
}
