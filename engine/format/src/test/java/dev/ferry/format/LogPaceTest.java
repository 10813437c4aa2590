package dev.ferry.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LogPaceTest {
    private final ManualClock clock = new ManualClock();

    @Test
    void shouldPassTheFirstOccurrenceThenOnePerInterval() {
        LogPace pace = new LogPace(Duration.ofSeconds(1));

        assertThat(pace.passes(clock.nanos())).as("the first").isTrue();
        clock.advance(Duration.ofMillis(999));
        assertThat(pace.passes(clock.nanos())).as("within the interval").isFalse();
        clock.advance(Duration.ofMillis(1));
        assertThat(pace.passes(clock.nanos())).as("an interval after the last that passed").isTrue();
        assertThat(pace.passes(clock.nanos())).as("at the same instant").isFalse();
    }

    @Test
    void shouldMeasureFromTheLastOccurrenceThatPassedNotFromTheLastOne() {
        LogPace pace = new LogPace(Duration.ofSeconds(1));
        pace.passes(clock.nanos());
        for (int i = 0; i < 9; i++) {
            clock.advance(Duration.ofMillis(100));
            pace.passes(clock.nanos());
        }
        clock.advance(Duration.ofMillis(100));

        assertThat(pace.passes(clock.nanos())).as("a steady stream still logs once a second").isTrue();
    }

    @Test
    void shouldPassTheFirstOccurrenceWhateverTheClocksReading() {
        assertThat(new LogPace(Duration.ofSeconds(1)).passes(Long.MIN_VALUE + 1)).isTrue();
        assertThat(new LogPace(Duration.ofSeconds(1)).passes(0)).isTrue();
        assertThat(new LogPace(Duration.ofSeconds(1)).passes(-5)).isTrue();
    }

    @Test
    void shouldGiveWarningToTheOccurrenceThatPassesAndDebugToTheRest() {
        LogPace pace = LogPace.perSecond();

        assertThat(pace.level(clock.nanos())).isEqualTo(Level.WARNING);
        assertThat(pace.level(clock.nanos())).isEqualTo(Level.DEBUG);
    }

    @Test
    void shouldLetOneOfManyThreadsArrivingTogetherPass() throws Exception {
        LogPace pace = LogPace.perSecond();
        long now = clock.nanos();
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Boolean>> passed = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                passed.add(pool.submit(() -> {
                    start.await();
                    return pace.passes(now);
                }));
            }
            start.countDown();
            int count = 0;
            for (Future<Boolean> result : passed) {
                count += result.get(10, TimeUnit.SECONDS) ? 1 : 0;
            }
            assertThat(count).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void shouldRefuseAnIntervalThatIsNotPositive() {
        assertThatThrownBy(() -> new LogPace(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("positive");
        assertThatThrownBy(() -> new LogPace(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class);
    }
}
