package dev.ferry.remoting.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.ManualClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Warnings of closed connections are spaced on the monotonic clock, whatever its origin. */
class OutboundBudgetTest {
    private final ManualClock clock = new ManualClock();
    private final OutboundBudget budget = new OutboundBudget(1_024, 512);

    @Test
    void shouldWarnAtOnceThenAtMostOnceASecondWhenConnectionsKeepClosing() {
        assertThat(budget.warnNow(clock.nanos())).as("the first").isTrue();
        clock.advance(Duration.ofMillis(999));
        assertThat(budget.warnNow(clock.nanos())).as("within the second").isFalse();

        clock.advance(Duration.ofMillis(1));
        assertThat(budget.warnNow(clock.nanos())).as("a second later").isTrue();
    }

    @Test
    void shouldWarnAtOnceWhenTheMonotonicClockReadsBelowZero() {
        assertThat(budget.warnNow(Long.MIN_VALUE + 1)).isTrue();
        assertThat(budget.warnNow(Long.MIN_VALUE + 2)).isFalse();
    }
}
