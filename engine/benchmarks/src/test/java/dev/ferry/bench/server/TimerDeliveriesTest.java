package dev.ferry.bench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class TimerDeliveriesTest {
    private static final long REQUESTED_MS = 1_700_000_000_000L;
    private static final String REQUESTED = Long.toString(REQUESTED_MS);

    private static Instant at(long millisAfterRequested) {
        return Instant.ofEpochMilli(REQUESTED_MS + millisAfterRequested);
    }

    @Test
    void shouldRecordLatenessAndItsSplitAtTheDequeueTimeForMeasuredMessages() {
        TimerDeliveries deliveries = new TimerDeliveries(2, 0);
        deliveries.answered(0, true);
        deliveries.answered(1, true);

        deliveries.received(at(700), TimerDeliveries.key(0), REQUESTED, Long.toString(REQUESTED_MS + 690),
                REQUESTED_MS + 694);
        deliveries.received(at(300), TimerDeliveries.key(1), REQUESTED, null, REQUESTED_MS + 290);

        assertThat(deliveries.lateness().getTotalCount()).isEqualTo(2);
        assertThat(deliveries.lateness().getMaxValue()).isBetween(699_000L, 701_000L);
        assertThat(deliveries.firing().getMaxValue()).isBetween(689_000L, 691_000L);
        assertThat(deliveries.delivery().getMaxValue()).isBetween(9_990L, 10_010L);
        assertThat(deliveries.restoring().getMaxValue()).isBetween(3_990L, 4_010L);
        assertThat(deliveries.pulling().getMaxValue()).isBetween(5_990L, 6_010L);
        assertThat(deliveries.withoutDequeueTime()).isEqualTo(1);
        assertThat(deliveries.complete()).isTrue();
    }

    @Test
    void shouldCountAnArrivalBeforeTheRequestedTimeAsEarly() {
        TimerDeliveries deliveries = new TimerDeliveries(1, 0);

        deliveries.received(at(-250), TimerDeliveries.key(0), REQUESTED, null, 0);

        assertThat(deliveries.early()).isEqualTo(1);
        assertThat(deliveries.mostEarlyMicros()).isEqualTo(250_000);
    }

    @Test
    void shouldNotRecordLatenessOfWarmupMessagesButStillCheckThem() {
        TimerDeliveries deliveries = new TimerDeliveries(3, 2);
        for (int i = 0; i < 3; i++) {
            deliveries.answered(i, true);
        }

        deliveries.received(at(-1), TimerDeliveries.key(0), REQUESTED, null, 0);
        deliveries.received(at(10), TimerDeliveries.key(0), REQUESTED, null, 0);
        deliveries.received(at(20), TimerDeliveries.key(2), REQUESTED, null, 0);

        assertThat(deliveries.lateness().getTotalCount()).isEqualTo(1);
        assertThat(deliveries.early()).isEqualTo(1);
        assertThat(deliveries.duplicates()).isEqualTo(1);
        assertThat(deliveries.missing()).isEqualTo(1);
        assertThat(deliveries.complete()).isFalse();
    }

    @Test
    void shouldNotCountAFailedSendAsMissing() {
        TimerDeliveries deliveries = new TimerDeliveries(2, 0);
        deliveries.answered(0, true);
        deliveries.answered(1, false);

        deliveries.received(at(5), TimerDeliveries.key(0), REQUESTED, null, 0);

        assertThat(deliveries.failed()).isEqualTo(1);
        assertThat(deliveries.missing()).isZero();
        assertThat(deliveries.unanswered()).isZero();
        assertThat(deliveries.complete()).isTrue();
    }

    @Test
    void shouldIgnoreMessagesThatAreNotTheRunsTimerMessages() {
        TimerDeliveries deliveries = new TimerDeliveries(1, 0);

        assertThat(deliveries.received(at(1), "probe-1", null, null, 0)).isFalse();
        assertThat(deliveries.received(at(1), TimerDeliveries.key(7), REQUESTED, null, 0)).isFalse();
        assertThat(deliveries.received(at(1), TimerDeliveries.KEY_PREFIX + "x", REQUESTED, null, 0)).isFalse();
        assertThat(deliveries.received(at(1), null, REQUESTED, null, 0)).isFalse();
        assertThat(deliveries.lateness().getTotalCount()).isZero();
        assertThat(deliveries.duplicates()).isZero();
    }

    @Test
    void shouldRejectARunWithoutMeasuredMessages() {
        assertThatThrownBy(() -> new TimerDeliveries(5, 5)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("total 5 and first measured 5");
    }
}
