package dev.ferry.store;

import dev.ferry.format.DurableDirectories;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * An append-only log made of contiguous {@link MappedSegment}s of one size in one directory; segment bases are
 * multiples of the segment size. The segment list is an immutable snapshot replaced under this object's monitor, so
 * readers on any thread look segments up without locking. One thread at a time appends (the owner's write lock).
 */
final class SegmentedFile {
    private static final System.Logger LOG = System.getLogger(SegmentedFile.class.getName());
    private static final String ZERO_FILLING = ".zero-filling";
    private static final String ZERO_FILLED = ".zero-filled";

    private final Path dir;
    private final int segmentSize;
    private final SegmentWrites writes;
    private volatile List<MappedSegment> segments = List.of();

    SegmentedFile(Path dir, int segmentSize) {
        this(dir, segmentSize, SegmentWrites.MAPPED);
    }

    SegmentedFile(Path dir, int segmentSize, SegmentWrites writes) {
        this.dir = dir;
        this.segmentSize = segmentSize;
        this.writes = writes;
    }

    /**
     * Maps every segment file found; write positions are all "full" until the owner's recovery sets them. Nothing is
     * mapped when a segment was made with another size.
     */
    synchronized void load(long nowMillis) {
        try {
            DurableDirectories.create(dir);
            List<Path> files;
            try (Stream<Path> listed = Files.list(dir)) {
                files = listed.sorted().toList();
            }
            for (Path file : files) {
                if (!isMadeAhead(file) && isSegment(file)) {
                    requireMadeWithThisSize(file, baseOffset(file));
                }
            }
            List<MappedSegment> loaded = new ArrayList<>();
            for (Path file : files) {
                if (isMadeAhead(file)) {
                    Files.delete(file); // made ahead for a base that recovery may since have moved
                } else if (isSegment(file)) {
                    MappedSegment segment = MappedSegment.open(dir, baseOffset(file), segmentSize, nowMillis, writes);
                    segment.resetPositions(segmentSize);
                    segment.markFlushed();
                    loaded.add(segment);
                }
            }
            segments = List.copyOf(loaded);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot load segments in " + dir, e);
        }
    }

    private static boolean isSegment(Path file) {
        String name = file.getFileName().toString();
        return name.length() == 20 && name.chars().allMatch(Character::isDigit);
    }

    private static long baseOffset(Path file) {
        return Long.parseLong(file.getFileName().toString());
    }

    /**
     * Refuses a segment that another segment size made: mapped with this one, its entries beyond this size, or those
     * of the segments named for other boundaries, would be cut away by recovery. A file shorter than the size is a
     * torn last segment, which recovery repairs.
     */
    private void requireMadeWithThisSize(Path file, long baseOffset) throws IOException {
        long length = Files.size(file);
        if (length > segmentSize || baseOffset % segmentSize != 0) {
            throw new IllegalStateException("segment " + file + " (" + length + " bytes from offset " + baseOffset
                + ") was not made with the " + segmentSize + "-byte segments this store is opened with: open it with"
                + " the segment size it was made with (commitLogSegmentSize, mappedFileSizeConsumeQueue)");
        }
    }

    int segmentSize() {
        return segmentSize;
    }

    List<MappedSegment> segments() {
        return segments;
    }

    Optional<MappedSegment> last() {
        List<MappedSegment> all = segments;
        return all.isEmpty() ? Optional.empty() : Optional.of(all.get(all.size() - 1));
    }

    /** Offset of the first byte still on disk, or 0 when there are no segments. */
    long minOffset() {
        List<MappedSegment> all = segments;
        return all.isEmpty() ? 0 : all.get(0).baseOffset();
    }

    /** Offset just past the last written byte. */
    long writtenOffset() {
        return last().map(MappedSegment::writtenOffset).orElse(0L);
    }

    /** The segment holding {@code offset}, if it is still on disk. */
    Optional<MappedSegment> segmentFor(long offset) {
        List<MappedSegment> all = segments;
        if (all.isEmpty() || offset < all.get(0).baseOffset()) {
            return Optional.empty();
        }
        long index = offset / segmentSize - all.get(0).baseOffset() / segmentSize;
        return index < all.size() ? Optional.of(all.get((int) index)) : Optional.empty();
    }

    /** Creates the segment starting at {@code baseOffset}, which must follow the last one. */
    synchronized MappedSegment addSegment(long baseOffset, long nowMillis) {
        if (baseOffset % segmentSize != 0) {
            throw new IllegalArgumentException("segment base " + baseOffset + " is not a multiple of " + segmentSize);
        }
        Optional<MappedSegment> last = last();
        if (last.isPresent() && last.get().baseOffset() + segmentSize != baseOffset) {
            throw new IllegalStateException("segment " + baseOffset + " does not follow " + last.get());
        }
        try {
            DurableDirectories.create(dir); // a queue's directory is made with its first segment
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create directory " + dir, e);
        }
        Path made = dir.resolve(MappedSegment.fileName(baseOffset) + ZERO_FILLED);
        if (Files.exists(made)) {
            try {
                Files.move(made, dir.resolve(MappedSegment.fileName(baseOffset)), StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                LOG.log(Level.WARNING, "cannot use zero-filled segment " + made + "; creating a sparse one", e);
            }
        }
        MappedSegment segment = MappedSegment.open(dir, baseOffset, segmentSize, nowMillis, writes);
        try {
            // the segment's name (created, or renamed from a file made ahead) must survive a power loss as surely
            // as the bytes forced into it, or recovery would not find them: once per segment, before any write
            DurableDirectories.force(dir);
        } catch (IOException e) {
            segment.close();
            throw new UncheckedIOException("cannot force directory " + dir, e);
        }
        List<MappedSegment> next = new ArrayList<>(segments);
        next.add(segment);
        segments = List.copyOf(next);
        return segment;
    }

    /** The segment to append to: the last one, or a new one at {@code emptyLogStart} when there is none. */
    MappedSegment lastOrCreate(long emptyLogStart, long nowMillis) {
        Optional<MappedSegment> last = last();
        return last.isPresent() ? last.get() : addSegment(emptyLogStart - emptyLogStart % segmentSize, nowMillis);
    }

    /**
     * Makes the segment at {@code baseOffset} ahead of time, zero-filled, under a name {@link #addSegment} looks for;
     * false when there is nothing to do (it exists, or was made already). Runs off the append path: filling a segment
     * writes its whole size, so it stops early when {@code abandoned} says so. A segment added meanwhile wins, and the
     * late file is dropped.
     */
    boolean zeroFillAhead(long baseOffset, BooleanSupplier abandoned) throws IOException {
        String name = MappedSegment.fileName(baseOffset);
        Path made = dir.resolve(name + ZERO_FILLED);
        if (Files.exists(made) || Files.exists(dir.resolve(name)) || isInUse(baseOffset)) {
            return false;
        }
        DurableDirectories.create(dir);
        Path filling = dir.resolve(name + ZERO_FILLING);
        Files.deleteIfExists(filling);
        try {
            if (!MappedSegment.writeZeroFilled(filling, made, segmentSize, abandoned)) {
                return false;
            }
        } finally {
            Files.deleteIfExists(filling);
        }
        synchronized (this) {
            if (isInUse(baseOffset) || Files.exists(dir.resolve(name))) {
                Files.deleteIfExists(made);
                return false;
            }
        }
        return true;
    }

    private boolean isInUse(long baseOffset) {
        return segments.stream().anyMatch(segment -> segment.baseOffset() == baseOffset);
    }

    /**
     * Releases what the segments hold open (their mappings stay readable) and drops a segment made ahead: the next
     * open would not trust it anyway.
     */
    synchronized void close() {
        segments.forEach(MappedSegment::close);
        try (Stream<Path> files = Files.exists(dir) ? Files.list(dir) : Stream.empty()) {
            for (Path file : files.toList()) {
                if (isMadeAhead(file)) {
                    Files.deleteIfExists(file);
                }
            }
        } catch (IOException e) {
            LOG.log(Level.WARNING, "cannot remove segments made ahead in " + dir, e);
        }
    }

    private static boolean isMadeAhead(Path file) {
        String name = file.getFileName().toString();
        return name.endsWith(ZERO_FILLING) || name.endsWith(ZERO_FILLED);
    }

    /** Forces every segment's unflushed bytes; returns the offset up to which everything is durable. */
    long flush() {
        long flushed = minOffset();
        for (MappedSegment segment : segments) {
            if (segment.flushedPosition() < segment.writePosition()) {
                segment.flush();
            }
            flushed = segment.baseOffset() + segment.flushedPosition();
        }
        return flushed;
    }

    /**
     * Cuts the log at {@code offset}: later segments are deleted, the segment holding it is zeroed from there on, and
     * the segments before it are full. An offset below the first segment empties the log. Returns how many bytes it
     * discarded (the cleared span plus the deleted segments).
     */
    synchronized long truncateTo(long offset) {
        List<MappedSegment> kept = new ArrayList<>();
        long discarded = 0;
        for (MappedSegment segment : segments) {
            if (segment.baseOffset() > offset) {
                segment.delete();
                discarded += segmentSize;
            } else if (segment.baseOffset() + segmentSize > offset) {
                discarded += segment.zeroFrom((int) (offset - segment.baseOffset()));
                kept.add(segment);
            } else {
                segment.resetPositions(segmentSize);
                kept.add(segment);
            }
        }
        segments = List.copyOf(kept);
        return discarded;
    }

    /** Deletes segments from the head while {@code condition} holds, always keeping the last one; returns how many. */
    synchronized int deleteHeadWhile(Predicate<MappedSegment> condition) {
        List<MappedSegment> all = segments;
        int deleted = 0;
        while (deleted < all.size() - 1 && condition.test(all.get(deleted))) {
            deleted++;
        }
        if (deleted > 0) {
            segments = List.copyOf(all.subList(deleted, all.size()));
            for (MappedSegment segment : all.subList(0, deleted)) {
                segment.delete();
            }
        }
        return deleted;
    }
}
