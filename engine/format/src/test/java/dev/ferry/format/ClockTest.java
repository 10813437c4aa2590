package dev.ferry.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class ClockTest {
    @Test
    void shouldMoveBothReadingsWhenAManualClockAdvances() {
        ManualClock clock = new ManualClock(Instant.parse("2026-12-01T12:00:00Z"));
        long nanos = clock.nanos();

        clock.advance(Duration.ofMillis(1_500));

        assertThat(clock.nanos() - nanos).isEqualTo(1_500_000_000L);
        assertThat(clock.instant()).isEqualTo(Instant.parse("2026-12-01T12:00:01.500Z"));
        assertThat(clock.at(ZoneOffset.ofHours(2)).getHour()).isEqualTo(14);
    }

    @Test
    void shouldLeaveTheMonotonicReadingWhenTheWallClockIsSet() {
        ManualClock clock = new ManualClock(1_000L);
        long nanos = clock.nanos();

        clock.setMillis(0L);

        assertThat(clock.millis()).isZero();
        assertThat(clock.nanos()).isEqualTo(nanos);
    }

    @Test
    void shouldRefuseToGoBackWhenAdvancedByANegativeDuration() {
        assertThatThrownBy(() -> new ManualClock().advance(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("go back");
    }

    @Test
    void shouldReadTheSystemWhenSystem() {
        Clock clock = Clock.system();
        long nanos = clock.nanos();
        long before = System.currentTimeMillis();

        long millis = clock.millis();

        assertThat(millis).isBetween(before, System.currentTimeMillis());
        assertThat(clock.nanos()).isGreaterThanOrEqualTo(nanos);
    }
}
