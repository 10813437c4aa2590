package dev.ferry.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * An append-only log made of contiguous {@link MappedSegment}s of one size in one directory; segment bases are
 * multiples of the segment size. The segment list is an immutable snapshot replaced under this object's monitor, so
 * readers on any thread look segments up without locking. One thread at a time appends (the owner's write lock).
 */
final class SegmentedFile {
    private final Path dir;
    private final int segmentSize;
    private volatile List<MappedSegment> segments = List.of();

    SegmentedFile(Path dir, int segmentSize) {
        this.dir = dir;
        this.segmentSize = segmentSize;
    }

    /** Maps every segment file found; write positions are all "full" until the owner's recovery sets them. */
    synchronized void load(long nowMillis) {
        try {
            Files.createDirectories(dir);
            List<MappedSegment> loaded = new ArrayList<>();
            try (Stream<Path> files = Files.list(dir)) {
                for (Path file : files.sorted().toList()) {
                    String name = file.getFileName().toString();
                    if (name.length() == 20 && name.chars().allMatch(Character::isDigit)) {
                        MappedSegment segment = MappedSegment.open(dir, Long.parseLong(name), segmentSize, nowMillis);
                        segment.resetPositions(segmentSize);
                        segment.markFlushed();
                        loaded.add(segment);
                    }
                }
            }
            segments = List.copyOf(loaded);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot load segments in " + dir, e);
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
        MappedSegment segment = MappedSegment.open(dir, baseOffset, segmentSize, nowMillis);
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
