package dev.ferry.remoting.protocol.body;

/** VIEW_BROKER_STATS_DATA answer: one statistic over the last minute, hour and day. */
public record BrokerStatsData(BrokerStatsItem statsMinute, BrokerStatsItem statsHour, BrokerStatsItem statsDay) {

    /**
     * One window.
     *
     * @param sum   the count within the window
     * @param tps   per second over the window
     * @param avgpt the average count per sampled event within the window
     */
    public record BrokerStatsItem(long sum, double tps, double avgpt) {
    }
}
