package dev.ferry.server.broker;

import dev.ferry.format.Clock;
import java.time.LocalDate;
import java.time.ZoneId;

/**
 * The broker's put and get totals at the start of today and of yesterday (Apache's {@code msgPutTotalTodayMorning}
 * and kin, which clusterList -m subtracts): {@link #roll} runs every minute and takes the totals as the new
 * morning's when the date has changed. Until a morning has passed since start, the broker's start stands for it.
 */
final class DailyTotals {
    private final Clock clock;
    private final ZoneId zone;
    private LocalDate today;
    private long putTodayMorning;
    private long getTodayMorning;
    private long putYesterdayMorning;
    private long getYesterdayMorning;

    DailyTotals(Clock clock, ZoneId zone) {
        this.clock = clock;
        this.zone = zone;
        this.today = clock.at(zone).toLocalDate();
    }

    synchronized void roll(long putTotal, long getTotal) {
        LocalDate now = clock.at(zone).toLocalDate();
        if (!now.equals(today)) {
            putYesterdayMorning = now.minusDays(1).equals(today) ? putTodayMorning : putTotal;
            getYesterdayMorning = now.minusDays(1).equals(today) ? getTodayMorning : getTotal;
            putTodayMorning = putTotal;
            getTodayMorning = getTotal;
            today = now;
        }
    }

    synchronized long[] mornings() {
        return new long[] {putYesterdayMorning, putTodayMorning, getYesterdayMorning, getTodayMorning};
    }
}
