package dev.ferry.server.broker;

import dev.ferry.format.Clock;
import dev.ferry.server.timer.TimerStore;
import java.time.ZoneId;
import java.util.function.Supplier;

/**
 * The broker's rates and windows for admin tools: puts and gets per second over 10 s, 60 s and 600 s, per-key
 * minute/hour/day counts (VIEW_BROKER_STATS_DATA), the daily totals (clusterList -m), and timers taken in and fired
 * per second (Apache's {@code timerEnqueueTps}, {@code timerDequeueTps}). {@link #sampleSecond()}
 * runs every second, {@link #rollMinute()} every minute, on the broker's scheduler.
 */
final class BrokerStatistics {
    /** Keys whose minute, hour and day counts are kept, per kind. */
    static final int STATS_KEYS = 100_000;

    private final TopicCounters counters;
    final ThroughputSampler putRate;
    final ThroughputSampler getRate;
    final StatsWindows putWindows = new StatsWindows(STATS_KEYS);
    final StatsWindows getWindows = new StatsWindows(STATS_KEYS);
    final ThroughputSampler timerEnqueueRate;
    final ThroughputSampler timerFireRate;
    final DailyTotals daily;

    BrokerStatistics(TopicCounters counters, Supplier<TimerStore.Figures> timers, Clock clock, ZoneId zone) {
        this.counters = counters;
        this.putRate = new ThroughputSampler(counters::allIn);
        this.getRate = new ThroughputSampler(counters::allOut);
        this.timerEnqueueRate = new ThroughputSampler(() -> timers.get().enqueued());
        this.timerFireRate = new ThroughputSampler(() -> timers.get().fired());
        this.daily = new DailyTotals(clock, zone);
    }

    void sampleSecond() {
        putRate.sample();
        getRate.sample();
        timerEnqueueRate.sample();
        timerFireRate.sample();
    }

    void rollMinute() {
        putWindows.roll(counters.inByTopic());
        getWindows.roll(counters.outByGroup());
        daily.roll(counters.allIn(), counters.allOut());
    }
}
