package dev.ferry.server.timer;

import dev.ferry.format.DurableDirectories;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The timer store's append-only log of {@link TimerRecord}s, in segment files named by the log position they start at.
 * Written and read by the timer thread only. Positions only grow; whole segments are deleted from the head once nothing
 * in them waits ({@link #deleteHeadWhile}).
 */
final class TimerLog implements AutoCloseable {
    private final Path directory;
    private final long segmentBytes;
    private final TreeMap<Long, FileChannel> segments = new TreeMap<>();
    private final ByteBuffer one = ByteBuffer.allocate(TimerRecord.SIZE);
    private long end;
    private long unforcedSince = -1;

    /**
     * @param segmentRecords entries per segment file
     */
    TimerLog(Path directory, int segmentRecords) {
        this.directory = directory;
        this.segmentBytes = (long) segmentRecords * TimerRecord.SIZE;
        try {
            DurableDirectories.create(directory);
            try (Stream<Path> files = Files.list(directory)) {
                for (Path file : files.toList()) {
                    String name = file.getFileName().toString();
                    if (name.matches("\\d{20}")) {
                        segments.put(Long.parseLong(name), FileChannel.open(file, StandardOpenOption.READ,
                                StandardOpenOption.WRITE));
                    }
                }
            }
            end = segments.isEmpty() ? 0 : segments.lastKey() + segments.lastEntry().getValue().size();
        } catch (IOException e) {
            close();
            throw new UncheckedIOException("cannot open the timer log in " + directory, e);
        }
    }

    /** One past the last byte written (which recovery may cut back with {@link #truncate}). */
    long end() {
        return end;
    }

    /** Where the log starts: the first segment's position, or the end when there is none. */
    long start() {
        return segments.isEmpty() ? end : segments.firstKey();
    }

    /** Appends an entry and returns its position. */
    long append(TimerRecord entry) {
        long position = end;
        long base = position - position % segmentBytes;
        FileChannel channel = segments.get(base);
        try {
            if (channel == null) {
                channel = FileChannel.open(directory.resolve(String.format("%020d", base)), StandardOpenOption.CREATE,
                        StandardOpenOption.READ, StandardOpenOption.WRITE);
                segments.put(base, channel);
                DurableDirectories.force(directory);
            }
            one.clear();
            entry.writeTo(one);
            one.flip();
            while (one.hasRemaining()) {
                channel.write(one, position - base + one.position());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to the timer log", e);
        }
        end = position + TimerRecord.SIZE;
        if (unforcedSince < 0) {
            unforcedSince = position;
        }
        return position;
    }

    /** The entry at {@code position}, or null when none intact is there. */
    TimerRecord read(long position) {
        Map.Entry<Long, FileChannel> segment = segments.floorEntry(position);
        if (segment == null || position < 0 || position + TimerRecord.SIZE > end) {
            return null;
        }
        try {
            one.clear();
            while (one.hasRemaining()) {
                if (segment.getValue().read(one, position - segment.getKey() + one.position()) < 0) {
                    return null;
                }
            }
            one.flip();
            return TimerRecord.readFrom(one);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the timer log at " + position, e);
        }
    }

    /**
     * Hands each intact entry from {@code from} on, with its position, to {@code sink} until the first that is not
     * intact, and returns the position reached: where the log's good part ends.
     */
    long replay(long from, RecordSink sink) {
        long position = Math.max(from, start());
        while (position + TimerRecord.SIZE <= end) {
            TimerRecord entry = read(position);
            if (entry == null) {
                break;
            }
            sink.accept(position, entry);
            position += TimerRecord.SIZE;
        }
        return position;
    }

    interface RecordSink {
        void accept(long position, TimerRecord entry);
    }

    /** Cuts the log at {@code position}: what recovery found not intact, or not covered by the commit log. */
    void truncate(long position) {
        long keep = position - position % segmentBytes;
        try {
            while (!segments.isEmpty() && segments.lastKey() > keep) {
                Map.Entry<Long, FileChannel> last = segments.pollLastEntry();
                last.getValue().close();
                Files.deleteIfExists(directory.resolve(String.format("%020d", last.getKey())));
            }
            FileChannel segment = segments.get(keep);
            if (segment != null) {
                segment.truncate(position - keep);
                segment.force(true);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot truncate the timer log at " + position, e);
        }
        end = position;
    }

    /** Makes every appended entry durable. */
    void force() {
        if (unforcedSince < 0) {
            return;
        }
        try {
            for (FileChannel channel : segments.tailMap(unforcedSince - unforcedSince % segmentBytes, true).values()) {
                channel.force(false);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot force the timer log", e);
        }
        unforcedSince = -1;
    }

    /** The whole segments before the active one, oldest first, as [start, end) positions. */
    List<long[]> closedSegments() {
        List<long[]> closed = new ArrayList<>();
        for (Long base : segments.headMap(segments.isEmpty() ? 0 : segments.lastKey(), false).keySet()) {
            closed.add(new long[] {base, base + segmentBytes});
        }
        return closed;
    }

    /** Hands every intact entry of the segment starting at {@code base} to {@code sink}, read in large chunks. */
    void forEachIn(long base, Consumer<TimerRecord> sink) {
        FileChannel channel = segments.get(base);
        if (channel == null) {
            return;
        }
        long limit = Math.min(end, base + segmentBytes) - base;
        ByteBuffer chunk = ByteBuffer.allocate(TimerRecord.SIZE * 4096);
        try {
            for (long at = 0; at + TimerRecord.SIZE <= limit; ) {
                chunk.clear().limit((int) Math.min(chunk.capacity(), (limit - at) / TimerRecord.SIZE * TimerRecord.SIZE));
                while (chunk.hasRemaining()) {
                    if (channel.read(chunk, at + chunk.position()) < 0) {
                        return;
                    }
                }
                chunk.flip();
                while (chunk.remaining() >= TimerRecord.SIZE) {
                    int next = chunk.position() + TimerRecord.SIZE;
                    TimerRecord entry = TimerRecord.readFrom(chunk);
                    if (entry != null) {
                        sink.accept(entry);
                    }
                    chunk.position(next);
                }
                at += chunk.limit();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read timer log segment " + base, e);
        }
    }

    /** The start of the segment holding {@code position}. */
    long segmentOf(long position) {
        return position - position % segmentBytes;
    }

    /** Deletes the oldest segment, never the active one. */
    void deleteOldest() {
        if (segments.size() < 2) {
            return;
        }
        Map.Entry<Long, FileChannel> first = segments.pollFirstEntry();
        try {
            first.getValue().close();
            Files.deleteIfExists(directory.resolve(String.format("%020d", first.getKey())));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete timer log segment " + first.getKey(), e);
        }
    }

    long segmentBytes() {
        return segmentBytes;
    }

    @Override
    public void close() {
        for (FileChannel channel : segments.values()) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        segments.clear();
    }
}
