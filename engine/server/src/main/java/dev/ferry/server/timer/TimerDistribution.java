package dev.ferry.server.timer;

import dev.ferry.format.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongToIntFunction;

/**
 * How many timer entries wait in the slots of the next 24 hours, by Apache's bounds (5 s, 1 min, 5 min, 15 min, 1 h,
 * 4 h, 8 h, 24 h; each counts the slots from the bound before it up to its own), as Apache's
 * {@code rocketmq_timer_message_snapshot} counts them. Reads at most the slots the ring holds, whatever the precision,
 * so one reading costs a bounded number of array reads.
 */
public final class TimerDistribution {
    /** Apache's bounds, in seconds from now. */
    public static final List<Integer> BOUNDS_SECONDS = List.of(5, 60, 300, 900, 3600, 14_400, 28_800, 86_400);

    private final int precisionMs;
    private final LongToIntFunction slotCount;
    private final Clock clock;

    /**
     * @param slotCount how many entries wait in the slot starting at a time ({@link TimerStore#slotCount})
     */
    public TimerDistribution(int precisionMs, LongToIntFunction slotCount, Clock clock) {
        this.precisionMs = precisionMs;
        this.slotCount = slotCount;
        this.clock = clock;
    }

    /** Entries waiting below each bound and at or above the one before, by bound in seconds, in bound order. */
    public Map<Integer, Long> bySeconds() {
        long now = clock.millis();
        long first = now - Math.floorMod(now, (long) precisionMs);
        Map<Integer, Long> counts = new LinkedHashMap<>();
        long from = 0;
        for (int bound : BOUNDS_SECONDS) {
            long to = Math.min(bound * 1000L / precisionMs, TimerStore.RING_SLOTS);
            long total = 0;
            for (long slot = from; slot < to; slot++) {
                total += slotCount.applyAsInt(first + slot * precisionMs);
            }
            counts.put(bound, total);
            from = Math.max(from, to);
        }
        return counts;
    }
}
