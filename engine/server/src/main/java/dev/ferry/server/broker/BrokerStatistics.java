package dev.ferry.server.broker;

import java.time.Clock;
import java.time.ZoneId;

/**
 * The broker's rates and windows for admin tools: puts and gets per second over 10 s, 60 s and 600 s, per-key
 * minute/hour/day counts (VIEW_BROKER_STATS_DATA), and the daily totals (clusterList -m). {@link #sampleSecond()}
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
    final DailyTotals daily;

    BrokerStatistics(TopicCounters counters, Clock clock, ZoneId zone) {
        this.counters = counters;
        this.putRate = new ThroughputSampler(counters::allIn);
        this.getRate = new ThroughputSampler(counters::allOut);
        this.daily = new DailyTotals(clock, zone);
    }

    void sampleSecond() {
        putRate.sample();
        getRate.sample();
    }

    void rollMinute() {
        putWindows.roll(counters.inByTopic());
        getWindows.roll(counters.outByGroup());
        daily.roll(counters.allIn(), counters.allOut());
    }
}
