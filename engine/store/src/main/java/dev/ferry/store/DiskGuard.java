package dev.ferry.store;

import dev.ferry.format.Clock;
import java.time.Duration;

/**
 * Decides whether the append path may write: rejects above the configured used ratio, and when a new segment would not
 * fit. Reuses one disk reading for the check interval, so the hot path rarely asks the file system; a segment roll
 * always asks afresh. Called only under the commit log's append lock.
 */
final class DiskGuard {
    private final DiskSpace disk;
    private final double rejectRatio;
    private final long checkIntervalMillis;
    private final Clock clock;
    private long lastCheckMillis = Long.MIN_VALUE;
    private boolean lastVerdict = true;
    private String lastReason = "";

    DiskGuard(DiskSpace disk, double rejectRatio, Duration checkInterval, Clock clock) {
        this.disk = disk;
        this.rejectRatio = rejectRatio;
        this.checkIntervalMillis = checkInterval.toMillis();
        this.clock = clock;
    }

    /** True when an append may go ahead; {@code newSegmentBytes} &gt; 0 when it needs a new segment of that size. */
    boolean allowsAppend(long newSegmentBytes) {
        long now = clock.millis();
        if (newSegmentBytes > 0 || lastCheckMillis == Long.MIN_VALUE || now - lastCheckMillis >= checkIntervalMillis) {
            lastCheckMillis = now;
            double used = disk.usedRatio();
            long usable = disk.usableBytes();
            lastVerdict = used <= rejectRatio && usable >= newSegmentBytes;
            lastReason = "disk used ratio " + String.format("%.3f", used) + " (reject above " + rejectRatio
                + "), usable " + usable + " bytes";
        }
        return lastVerdict;
    }

    /** Why the last check refused. */
    String reason() {
        return lastReason;
    }
}
