package dev.ferry.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.util.function.LongSupplier;

/**
 * Keeps the commit log's next segment made ahead of time and zero-filled, for {@link SegmentWrites#CHANNEL} writes:
 * the segment the next roll needs, or the first one while the log is empty. It leaves the disk alone when making one
 * would leave less than a segment free or cross the reject ratio; the roll then creates a sparse segment, as under
 * async flush. A failure is logged once and retried on the next round.
 */
final class SegmentZeroFiller implements DutyLoop.Duty {
    private static final System.Logger LOG = System.getLogger(SegmentZeroFiller.class.getName());

    private final SegmentedFile file;
    private final LongSupplier writtenOffset;
    private final DiskSpace disk;
    private final double rejectRatio;
    private boolean failing;
    private volatile boolean stopped;

    SegmentZeroFiller(SegmentedFile file, LongSupplier writtenOffset, DiskSpace disk, double rejectRatio) {
        this.file = file;
        this.writtenOffset = writtenOffset;
        this.disk = disk;
        this.rejectRatio = rejectRatio;
    }

    /** Makes the current fill, if any, give up soon: the store is closing. */
    void stop() {
        stopped = true;
    }

    @Override
    public int doWork() {
        long size = file.segmentSize();
        long next = file.last().map(last -> last.baseOffset() + size).orElseGet(() -> {
            long written = writtenOffset.getAsLong();
            return written - written % size;
        });
        if (stopped || disk.usedRatio() > rejectRatio || disk.usableBytes() < 2 * size) {
            return 0;
        }
        try {
            boolean made = file.zeroFillAhead(next, () -> stopped);
            failing = false;
            return made ? 1 : 0;
        } catch (IOException | UncheckedIOException e) {
            if (!failing) {
                LOG.log(Level.WARNING, "cannot make commit-log segment " + next + " ahead; rolls create sparse ones", e);
            }
            failing = true;
            return 0;
        }
    }
}
