package dev.ferry.store;

import dev.ferry.format.MessageProperties;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

/** Messages and configurations for store tests. */
final class TestMessages {
    static final InetSocketAddress BORN_HOST = host("10.1.2.3", 40001);
    static final InetSocketAddress STORE_HOST = host("192.168.7.9", 10911);

    private TestMessages() {
    }

    static InetSocketAddress host(String address, int port) {
        try {
            return new InetSocketAddress(InetAddress.getByName(address), port);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(address, e);
        }
    }

    /** A small store: 64 KiB commit-log segments, 256-entry consume-queue segments, small index files. */
    static StoreConfig.Builder smallConfig(Path dir) {
        return StoreConfig.builder(dir)
            .commitLogSegmentSize(64 * 1024)
            .consumeQueueEntriesPerSegment(256)
            .maxMessageBodySize(16 * 1024)
            .indexHashSlots(1024)
            .indexMaxEntries(4096)
            .flushInterval(java.time.Duration.ofMillis(50))
            // what the host's disk holds besides must not delete or refuse a test's segments (RetentionTest and
            // DiskGuardTest set their own ratios against a fake disk)
            .diskCleanRatio(1.0).diskRejectRatio(1.0);
    }

    /**
     * Puts a regular file where {@code topic}'s queue directory in store {@code dir} must go: what a disk or permission
     * error looks like to the dispatcher. Returns it, to delete when the cause is gone.
     */
    static Path blockQueueDirectory(Path dir, String topic) throws IOException {
        Path blocker = dir.resolve("consumequeue").resolve(topic);
        Files.createDirectories(blocker.getParent());
        Files.writeString(blocker, "not a directory");
        return blocker;
    }

    static MessageToStore message(String topic, int queueId, String body) {
        return message(topic, queueId, body, null, null);
    }

    static MessageToStore message(String topic, int queueId, String body, String tags, String keys) {
        Map<String, String> properties = new LinkedHashMap<>();
        if (tags != null) {
            properties.put(MessageProperties.TAGS, tags);
        }
        if (keys != null) {
            properties.put(MessageProperties.KEYS, keys);
        }
        properties.put(MessageProperties.UNIQ_KEY, "UNIQ-" + topic + "-" + body.hashCode());
        return MessageToStore.builder(topic, queueId, body.getBytes(StandardCharsets.UTF_8))
            .properties(properties)
            .flag(7)
            .bornTimestamp(1_700_000_000_000L)
            .bornHost(BORN_HOST)
            .storeHost(STORE_HOST)
            .reconsumeTimes(2)
            .build();
    }

    /** A body of {@code length} pseudo-random printable bytes determined by {@code seed}. */
    static byte[] body(long seed, int length) {
        Random random = new Random(seed);
        byte[] body = new byte[length];
        for (int i = 0; i < length; i++) {
            body[i] = (byte) ('a' + random.nextInt(26));
        }
        return body;
    }

    static String text(java.nio.ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
