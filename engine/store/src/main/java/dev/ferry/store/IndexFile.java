package dev.ferry.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * One index file in RocketMQ's layout: a 40-byte header (beginTimestamp 8, endTimestamp 8, beginPhyOffset 8,
 * endPhyOffset 8, used hash slot count 4, index count 4 starting at 1), then {@code hashSlots} 4-byte slots holding
 * the newest entry number of the slot, then {@code maxEntries} 20-byte entries (key hash 4, commit-log offset 8,
 * seconds since beginTimestamp 4, previous entry number in the slot 4). The dispatcher writes (one thread at a time, in
 * its turn); a reader on another thread reads only entries below the published count.
 */
final class IndexFile {
    static final int HEADER_SIZE = 40;
    static final int SLOT_SIZE = 4;
    static final int ENTRY_SIZE = 20;

    private final Path file;
    private final int hashSlots;
    private final int maxEntries;
    private final MappedByteBuffer map;
    private volatile int indexCount;

    private IndexFile(Path file, int hashSlots, int maxEntries, MappedByteBuffer map) {
        this.file = file;
        this.hashSlots = hashSlots;
        this.maxEntries = maxEntries;
        this.map = map;
        int count = map.getInt(36);
        this.indexCount = count == 0 ? 1 : count;
    }

    static long fileSize(int hashSlots, int maxEntries) {
        return HEADER_SIZE + (long) hashSlots * SLOT_SIZE + (long) maxEntries * ENTRY_SIZE;
    }

    /** Maps (and creates when absent) one index file. */
    static IndexFile open(Path file, int hashSlots, int maxEntries) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
            StandardOpenOption.WRITE)) {
            long size = fileSize(hashSlots, maxEntries);
            if (channel.size() < size) {
                channel.write(ByteBuffer.allocate(1), size - 1);
            }
            return new IndexFile(file, hashSlots, maxEntries, channel.map(FileChannel.MapMode.READ_WRITE, 0, size));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot map index file " + file, e);
        }
    }

    Path file() {
        return file;
    }

    long beginTimestamp() {
        return map.getLong(0);
    }

    long endTimestamp() {
        return map.getLong(8);
    }

    long beginPhysicalOffset() {
        return map.getLong(16);
    }

    long endPhysicalOffset() {
        return map.getLong(24);
    }

    static int keyHash(String key) {
        int hash = Math.abs(key.hashCode());
        return hash < 0 ? 0 : hash;
    }

    /** Adds one key; false when the file is full. */
    boolean put(String key, long physicalOffset, long storeTimestamp) {
        int count = indexCount;
        if (count > maxEntries) {
            return false;
        }
        if (count == 1) {
            map.putLong(0, storeTimestamp);
            map.putLong(16, physicalOffset);
        }
        int hash = keyHash(key);
        int slotPosition = HEADER_SIZE + (hash % hashSlots) * SLOT_SIZE;
        int previous = map.getInt(slotPosition);
        long timeDiffSeconds = Math.max(0, (storeTimestamp - beginTimestamp()) / 1000);
        int entryPosition = entryPosition(count);
        map.putInt(entryPosition, hash);
        map.putLong(entryPosition + 4, physicalOffset);
        map.putInt(entryPosition + 12, (int) Math.min(Integer.MAX_VALUE, timeDiffSeconds));
        map.putInt(entryPosition + 16, previous);
        map.putInt(slotPosition, count);
        if (previous == 0) {
            map.putInt(32, map.getInt(32) + 1);
        }
        map.putLong(8, storeTimestamp);
        map.putLong(24, physicalOffset);
        map.putInt(36, count + 1);
        indexCount = count + 1;
        return true;
    }

    private int entryPosition(int number) {
        return HEADER_SIZE + hashSlots * SLOT_SIZE + (number - 1) * ENTRY_SIZE;
    }

    /** Adds the commit-log offsets of entries whose key hash matches and whose time is in [begin, end]. */
    void collect(String key, long beginTimestamp, long endTimestamp, int maxResults, List<Long> out) {
        int count = indexCount;
        int hash = keyHash(key);
        int number = map.getInt(HEADER_SIZE + (hash % hashSlots) * SLOT_SIZE);
        long fileBegin = beginTimestamp();
        while (number > 0 && number < count && out.size() < maxResults) {
            int position = entryPosition(number);
            long timestamp = fileBegin + map.getInt(position + 12) * 1000L;
            if (map.getInt(position) == hash && timestamp >= beginTimestamp - 999 && timestamp <= endTimestamp) {
                out.add(map.getLong(position + 4));
            }
            int previous = map.getInt(position + 16);
            number = previous < number ? previous : 0;
        }
    }

    void flush() {
        map.force();
    }

    void delete() {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete index file " + file, e);
        }
    }
}
