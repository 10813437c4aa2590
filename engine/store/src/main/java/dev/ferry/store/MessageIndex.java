package dev.ferry.store;

import dev.ferry.format.Clock;
import dev.ferry.format.DurableDirectories;
import dev.ferry.format.MessageProperties;
import dev.ferry.format.StoredMessageView;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The message-key index: {@link IndexFile}s in {@code index/}, named by creation time {@code yyyyMMddHHmmssSSS} (UTC),
 * holding {@code topic#UNIQ_KEY} and {@code topic#key} for every space-separated key of {@code KEYS}. The dispatcher
 * thread adds; queries from any thread return candidate commit-log offsets, which the caller verifies against the
 * stored message (hash collisions, entries re-added by recovery, or entries left beyond a truncated tail).
 */
final class MessageIndex {
    private static final DateTimeFormatter FILE_NAME =
        DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS").withZone(ZoneOffset.UTC);

    private final Path dir;
    private final int hashSlots;
    private final int maxEntries;
    private final Clock clock;
    private volatile List<IndexFile> files = List.of();

    MessageIndex(Path dir, int hashSlots, int maxEntries, Clock clock) {
        this.dir = dir;
        this.hashSlots = hashSlots;
        this.maxEntries = maxEntries;
        this.clock = clock;
    }

    static String key(String topic, String key) {
        return topic + "#" + key;
    }

    synchronized void load() {
        try {
            DurableDirectories.create(dir);
            try (Stream<Path> found = Files.list(dir)) {
                files = found.filter(p -> p.getFileName().toString().matches("\\d{17}")).sorted()
                    .map(p -> IndexFile.open(p, hashSlots, maxEntries)).toList();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot load index files in " + dir, e);
        }
    }

    /** Indexes one dispatched message. */
    void add(StoredMessageView message) {
        String properties = message.propertiesString();
        String topic = message.topic();
        String uniqueKey = MessageProperties.find(properties, MessageProperties.UNIQ_KEY);
        if (uniqueKey != null && !uniqueKey.isEmpty()) {
            put(key(topic, uniqueKey), message);
        }
        String keys = MessageProperties.find(properties, MessageProperties.KEYS);
        if (keys != null) {
            for (String key : keys.split(MessageProperties.KEY_SEPARATOR)) {
                if (!key.isEmpty()) {
                    put(key(topic, key), message);
                }
            }
        }
    }

    private void put(String key, StoredMessageView message) {
        if (!writable().put(key, message.physicalOffset(), message.storeTimestamp())) {
            roll().put(key, message.physicalOffset(), message.storeTimestamp());
        }
    }

    private IndexFile writable() {
        List<IndexFile> all = files;
        return all.isEmpty() ? roll() : all.get(all.size() - 1);
    }

    private synchronized IndexFile roll() {
        long millis = clock.millis();
        Path file = dir.resolve(FILE_NAME.format(Instant.ofEpochMilli(millis)));
        while (Files.exists(file)) {
            millis++;
            file = dir.resolve(FILE_NAME.format(Instant.ofEpochMilli(millis)));
        }
        IndexFile created = IndexFile.open(file, hashSlots, maxEntries);
        try {
            // like a commit-log segment's: the checkpoint's index offset is worth nothing if the file can vanish
            DurableDirectories.force(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot force index directory " + dir, e);
        }
        List<IndexFile> next = new ArrayList<>(files);
        next.add(created);
        files = List.copyOf(next);
        return created;
    }

    /** Candidate commit-log offsets for a key stored within [begin, end], newest files first, without duplicates. */
    List<Long> query(String topic, String key, int maxResults, long beginTimestamp, long endTimestamp) {
        String indexKey = key(topic, key);
        List<IndexFile> all = files;
        List<Long> found = new ArrayList<>();
        for (int i = all.size() - 1; i >= 0 && found.size() < maxResults; i--) {
            IndexFile file = all.get(i);
            if (file.endTimestamp() >= beginTimestamp - 1000 && file.beginTimestamp() <= endTimestamp) {
                file.collect(indexKey, beginTimestamp, endTimestamp, maxResults - found.size(), found);
            }
        }
        Set<Long> unique = new LinkedHashSet<>(found);
        return List.copyOf(unique);
    }

    /** Deletes files (never the newest) whose entries all point below {@code minPhysicalOffset}. */
    synchronized void deleteBelow(long minPhysicalOffset) {
        List<IndexFile> all = files;
        int drop = 0;
        while (drop < all.size() - 1 && all.get(drop).endPhysicalOffset() < minPhysicalOffset) {
            all.get(drop).delete();
            drop++;
        }
        files = List.copyOf(all.subList(drop, all.size()));
    }

    /** Deletes files that begin at or beyond {@code validEndOffset}: they index only a truncated tail. */
    synchronized void deleteFrom(long validEndOffset) {
        List<IndexFile> kept = new ArrayList<>();
        for (IndexFile file : files) {
            if (file.beginPhysicalOffset() >= validEndOffset && file.endTimestamp() != 0) {
                file.delete();
            } else {
                kept.add(file);
            }
        }
        files = List.copyOf(kept);
    }

    void flush() {
        files.forEach(IndexFile::flush);
    }
}
