package dev.ferry.server.broker;

import dev.ferry.remoting.protocol.body.BrokerStatsData;
import dev.ferry.remoting.protocol.body.BrokerStatsData.BrokerStatsItem;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Counts per key over the last minute, hour and day, as VIEW_BROKER_STATS_DATA reports them: {@link #roll} is given
 * every key's running total once a minute and keeps the minute's increase, sixty minutes and twenty-four hours per
 * key (84 numbers), at most {@code maxKeys} keys.
 *
 * <p>Thread-safe: rolls are serialized; reads see whole windows.
 */
final class StatsWindows {
    private static final int MINUTES = 60;
    private static final int HOURS = 24;

    private static final class Window {
        long lastTotal;
        final long[] minutes = new long[MINUTES];
        int minuteCursor;
        final long[] hours = new long[HOURS];
        int hourCursor;
        long thisHour;
        int minutesThisHour;
        long lastMinute;

        Window(long total) {
            lastTotal = total;
        }

        void roll(long total) {
            long delta = Math.max(0, total - lastTotal);
            lastTotal = total;
            lastMinute = delta;
            minutes[minuteCursor] = delta;
            minuteCursor = (minuteCursor + 1) % MINUTES;
            thisHour += delta;
            if (++minutesThisHour == MINUTES) {
                hours[hourCursor] = thisHour;
                hourCursor = (hourCursor + 1) % HOURS;
                thisHour = 0;
                minutesThisHour = 0;
            }
        }

        BrokerStatsData data() {
            long hour = 0;
            for (long minute : minutes) {
                hour += minute;
            }
            long day = thisHour;
            for (long h : hours) {
                day += h;
            }
            return new BrokerStatsData(item(lastMinute, 60), item(hour, 3_600), item(day, 86_400));
        }

        private static BrokerStatsItem item(long sum, int seconds) {
            // avgpt is Apache's mean count per recorded event; counts here are kept per message, not per event
            return new BrokerStatsItem(sum, sum / (double) seconds, 0);
        }
    }

    private final Map<String, Window> windows = new ConcurrentHashMap<>();
    private final int maxKeys;

    StatsWindows(int maxKeys) {
        this.maxKeys = maxKeys;
    }

    /** Takes every key's running total: the increase since the last roll is the minute just ended. */
    synchronized void roll(Map<String, Long> totals) {
        windows.keySet().retainAll(totals.keySet());
        totals.forEach((key, total) -> {
            Window window = windows.get(key);
            if (window != null) {
                window.roll(total);
            } else if (windows.size() < maxKeys) {
                // first seen: its whole count arrived since the last roll, which did not see it
                Window fresh = new Window(0);
                fresh.roll(total);
                windows.put(key, fresh);
            }
        });
    }

    /** Forgets the windows of the keys {@code forgotten} matches (a deleted group's, say) at once. */
    synchronized void forget(java.util.function.Predicate<String> forgotten) {
        windows.keySet().removeIf(forgotten);
    }

    /** Keys whose windows are kept now. */
    synchronized int size() {
        return windows.size();
    }

    /** The key's counts, or empty when it has none yet (or is beyond the keys kept). */
    synchronized Optional<BrokerStatsData> of(String key) {
        Window window = windows.get(key);
        return window == null ? Optional.empty() : Optional.of(window.data());
    }
}
