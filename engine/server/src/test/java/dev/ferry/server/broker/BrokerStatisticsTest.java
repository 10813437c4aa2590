package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.ManualClock;
import dev.ferry.remoting.protocol.body.BrokerStatsData;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The windows behind VIEW_BROKER_STATS_DATA and GET_BROKER_RUNTIME_INFO's rates and daily totals. */
class BrokerStatisticsTest {

    @Test
    void statsWindowsKeepTheLastMinuteHourAndDayPerKey() {
        StatsWindows windows = new StatsWindows(10);
        assertThat(windows.of("T")).isEmpty();
        windows.roll(Map.of("T", 60L));                 // minute 1: 60
        for (int minute = 2; minute <= 61; minute++) {  // then 30 a minute for an hour
            windows.roll(Map.of("T", 60L + 30L * (minute - 1)));
        }
        BrokerStatsData data = windows.of("T").orElseThrow();
        assertThat(data.statsMinute().sum()).isEqualTo(30);
        assertThat(data.statsMinute().tps()).isEqualTo(0.5);
        assertThat(data.statsHour().sum()).isEqualTo(30 * 60);  // the first minute has left the hour
        assertThat(data.statsDay().sum()).isEqualTo(60 + 30 * 60);
    }

    @Test
    void statsWindowsForgetKeysThatWentAndKeepNoMoreThanTheirMaximum() {
        StatsWindows windows = new StatsWindows(2);
        windows.roll(Map.of("a", 1L, "b", 2L, "c", 3L));
        long kept = java.util.stream.Stream.of("a", "b", "c").filter(k -> windows.of(k).isPresent()).count();
        assertThat(kept).isEqualTo(2);
        windows.roll(Map.of("c", 5L));
        assertThat(windows.of("a")).isEmpty();
        assertThat(windows.of("b")).isEmpty();
    }

    @Test
    void throughputIsPerSecondOverWhatWasSampled() {
        AtomicLong total = new AtomicLong();
        ThroughputSampler sampler = new ThroughputSampler(total::get);
        assertThat(sampler.windows()).isEqualTo("0.0 0.0 0.0");
        for (int second = 0; second <= 20; second++) {
            total.set(second * 100L);
            sampler.sample();
        }
        assertThat(sampler.perSecond(10)).isEqualTo(100.0);
        assertThat(sampler.perSecond(600)).isEqualTo(100.0); // over the 20 s sampled so far
        for (String token : sampler.windows().split(" ")) {
            assertThat(Double.parseDouble(token)).isEqualTo(100.0);
        }
    }

    @Test
    void dailyTotalsTakeTheMorningsWhenTheDateChanges() {
        ManualClock clock = new ManualClock(java.time.LocalDate.of(2026, 12, 1).atTime(23, 0)
                .toInstant(ZoneOffset.UTC).toEpochMilli());
        DailyTotals daily = new DailyTotals(clock, ZoneOffset.UTC);
        daily.roll(100, 50);
        assertThat(daily.mornings()).containsExactly(0, 0, 0, 0);
        clock.advance(Duration.ofHours(2)); // the next day
        daily.roll(300, 120);
        assertThat(daily.mornings()).containsExactly(0, 300, 0, 120);
        clock.advance(Duration.ofDays(1));
        daily.roll(1000, 400);
        assertThat(daily.mornings()).containsExactly(300, 1000, 120, 400);
    }
}
