package dev.ferry.server.timer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.Clock;
import dev.ferry.format.ManualClock;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TimerDistributionTest {
    private static final long NOW = 1_000_000_500L;
    private static final long SLOT = 1_000_000_000L;
    private final Clock clock = new ManualClock(Instant.ofEpochMilli(NOW));

    @Test
    void shouldCountEachSlotUnderTheFirstBoundBeyondItAndNothingPastOrBeyondADay() {
        Map<Long, Integer> slots = new HashMap<>();
        slots.put(SLOT - 1_000, 9); // a slot already past: not waiting in the next 24 h
        slots.put(SLOT, 1); // the current slot
        slots.put(SLOT + 4_000, 2);
        slots.put(SLOT + 5_000, 3); // 5 s away: the next bound's
        slots.put(SLOT + 299_000, 4);
        slots.put(SLOT + 86_399_000, 5);
        slots.put(SLOT + 86_400_000, 6); // a day away: beyond the last bound

        Map<Integer, Long> counts = new TimerDistribution(1_000, s -> slots.getOrDefault(s, 0), clock).bySeconds();

        assertThat(counts).containsExactly(Map.entry(5, 3L), Map.entry(60, 3L), Map.entry(300, 4L),
                Map.entry(900, 0L), Map.entry(3600, 0L), Map.entry(14_400, 0L), Map.entry(28_800, 0L),
                Map.entry(86_400, 5L));
    }

    @Test
    void shouldReadNoMoreSlotsThanTheRingHoldsWhenThePrecisionIsFine() {
        AtomicLong reads = new AtomicLong();

        Map<Integer, Long> counts = new TimerDistribution(10, s -> {
            reads.incrementAndGet();
            return 1;
        }, clock).bySeconds();

        assertThat(reads.get()).isEqualTo(TimerStore.RING_SLOTS);
        assertThat(counts.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(TimerStore.RING_SLOTS);
        assertThat(counts.get(5)).isEqualTo(500L);
    }
}
