package dev.ferry.store;

import dev.ferry.format.AtomicFile;
import dev.ferry.format.StoredMessageCodec;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Optional;

/**
 * Brings the files on disk to a consistent state before the store serves anything, on the opening thread.
 *
 * <ol>
 * <li>Scans the commit log forward from the start of the segment holding the checkpoint's safe offset (the first
 * segment without a checkpoint), verifying each entry (magic, sizes, physical offset, body CRC, untorn topic and
 * properties), and cuts the log at the first entry that fails: later segments are deleted and the tail is zeroed.</li>
 * <li>Drops consume-queue entries beyond what is trusted: after a clean shutdown, those beyond the valid end; after a
 * crash (abort marker present), everything beyond the checkpoint's consume-queue offset, since it may be torn.</li>
 * <li>Re-dispatches the commit log from the checkpoint's consume-queue/index offset to the valid end, so consume queues
 * and the index agree with the commit log.</li>
 * </ol>
 */
final class StoreRecovery {
    private static final System.Logger LOG = System.getLogger(StoreRecovery.class.getName());

    private final AtomicFile checkpointFile;
    private final SegmentedFile commitLogFile;
    private final ConsumeQueueTable consumeQueues;
    private final MessageIndex index;
    private final Dispatcher dispatcher;

    StoreRecovery(AtomicFile checkpointFile, SegmentedFile commitLogFile, ConsumeQueueTable consumeQueues, MessageIndex index,
                  Dispatcher dispatcher) {
        this.checkpointFile = checkpointFile;
        this.commitLogFile = commitLogFile;
        this.consumeQueues = consumeQueues;
        this.index = index;
        this.dispatcher = dispatcher;
    }

    /** Runs recovery; the files are loaded, no service thread is running. */
    RecoveryReport recover(boolean cleanShutdown) {
        Optional<Checkpoint> checkpoint = Checkpoint.read(checkpointFile);
        long minOffset = commitLogFile.minOffset();
        long dataEnd = commitLogFile.writtenOffset();
        long safeOffset = clamp(checkpoint.map(Checkpoint::safeOffset).orElse(minOffset), minOffset, dataEnd);
        Scan scan = scanFrom(safeOffset - safeOffset % commitLogFile.segmentSize());
        long validEnd = scan.validEnd();
        long truncated = commitLogFile.truncateTo(validEnd);
        long dispatchFrom = clamp(checkpoint.map(c -> Math.min(c.consumeQueueOffset(), c.indexOffset()))
            .orElse(minOffset), minOffset, validEnd);
        consumeQueues.truncateBeyond(cleanShutdown ? validEnd : dispatchFrom);
        index.deleteFrom(cleanShutdown ? validEnd : dispatchFrom);
        consumeQueues.advanceMinOffset(minOffset);
        // After a clean shutdown the index holds what the checkpoint says; entries re-dispatched below that (those of
        // queues that were set aside) go to their consume queues again, never twice to the index.
        long indexedUpTo = cleanShutdown ? clamp(checkpoint.map(Checkpoint::indexOffset).orElse(minOffset), dispatchFrom,
            validEnd) : dispatchFrom;
        dispatcher.startFrom(dispatchFrom, indexedUpTo);
        int redispatched = dispatcher.dispatchUpTo(validEnd, false);
        if (!cleanShutdown || truncated > 0 || !scan.problem().isEmpty()) {
            LOG.log(Level.WARNING, "store recovered after {0}: valid end {1}, cut {2} bytes ({3}), re-dispatched {4}"
                    + " messages from {5}", cleanShutdown ? "clean shutdown" : "crash", validEnd, truncated,
                scan.problem().isEmpty() ? "no damage" : scan.problem(), redispatched, dispatchFrom);
        }
        return new RecoveryReport(cleanShutdown, validEnd, truncated, redispatched, scan.problem());
    }

    private static long clamp(long value, long min, long max) {
        return Math.max(min, Math.min(max, value));
    }

    private Scan scanFrom(long start) {
        List<MappedSegment> segments = commitLogFile.segments();
        long offset = start;
        for (MappedSegment segment : segments) {
            if (segment.baseOffset() + segment.size() <= start) {
                continue;
            }
            if (segment.baseOffset() != offset) {
                return new Scan(offset, "segment " + segment.file().getFileName() + " does not follow " + offset);
            }
            int position = 0;
            while (true) {
                StoredMessageCodec.EntryCheck check = StoredMessageCodec.check(segment.buffer(), position,
                    segment.size(), segment.baseOffset() + position);
                switch (check.verdict()) {
                    case MESSAGE -> position += check.size();
                    case BLANK -> position = segment.size();
                    case END -> {
                        return new Scan(segment.baseOffset() + position, "");
                    }
                    default -> {
                        return new Scan(segment.baseOffset() + position, check.problem() + " at offset "
                            + (segment.baseOffset() + position));
                    }
                }
                if (position == segment.size()) {
                    break;
                }
            }
            offset = segment.baseOffset() + segment.size();
        }
        return new Scan(offset, "");
    }

    /**
     * Where a scan stopped.
     *
     * @param validEnd offset just past the last verified entry
     * @param problem  why it stopped on damage, empty for a clean end
     */
    private record Scan(long validEnd, String problem) {
    }
}
