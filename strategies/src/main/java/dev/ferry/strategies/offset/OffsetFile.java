package dev.ferry.strategies.offset;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ferry.api.MessageQueue;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One group's offsets as a JSON file, with the previous version kept beside it as {@code .bak}.
 *
 * <p>Writing never leaves a torn file where a reader looks: the new content goes to a temporary file
 * that is forced to disk and then atomically moved over the old one, after the old one was copied to
 * the backup (itself through a temporary file). Reading falls back to the backup when the file is
 * missing or corrupt, and to "no offsets" when the backup is too, with a warning each time; RocketMQ
 * instead refuses to start on a corrupt backup (issue #10518).
 *
 * <pre>{"group":"g","offsets":[{"topic":"T","brokerName":"b","queueId":0,"offset":42}]}</pre>
 */
final class OffsetFile {

    private static final System.Logger LOG = System.getLogger(OffsetFile.class.getName());

    private final ObjectMapper json = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    private final String group;
    private final Path file;
    private final Path backup;

    OffsetFile(String group, Path file) {
        this.group = group;
        this.file = file;
        this.backup = sibling(".bak");
    }

    /** @return the offsets in the file, else in the backup, else none */
    Map<MessageQueue, Long> read() {
        return parse(file).or(() -> parse(backup)).orElseGet(() -> {
            if (Files.exists(file) || Files.exists(backup)) {
                LOG.log(Level.WARNING, "No readable offsets for group {0} in {1} or its backup; consumption starts"
                        + " from the consume-from-where setting", group, file);
            }
            return Map.of();
        });
    }

    /**
     * @param offsets the offsets to store, replacing what the file holds
     * @throws IOException if the file could not be written; the previous file is then still intact
     */
    void write(Map<MessageQueue, Long> offsets) throws IOException {
        Files.createDirectories(file.getParent());
        List<QueueOffset> entries = new TreeMap<>(offsets).entrySet().stream()
                .map(entry -> new QueueOffset(entry.getKey().topic(), entry.getKey().brokerName(),
                        entry.getKey().queueId(), entry.getValue()))
                .toList();
        byte[] content = json.writeValueAsBytes(new Content(group, entries));
        if (Files.exists(file)) {
            byte[] previous = Files.readAllBytes(file);
            if (isReadable(previous)) {
                // A corrupt file must not overwrite a good backup.
                replace(backup, previous);
            }
        }
        replace(file, content);
    }

    private void replace(Path target, byte[] content) throws IOException {
        Path temporary = target.resolveSibling(target.getFileName() + ".tmp");
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buffer = ByteBuffer.wrap(content);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        }
        Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        forceDirectory(target.getParent());
    }

    /** Makes the rename itself durable where the platform allows syncing a directory (not on Windows). */
    private static void forceDirectory(Path directory) {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            // Best effort: the file content is already on disk; at worst the old name survives a crash.
        }
    }

    private boolean isReadable(byte[] content) {
        try {
            decode(content);
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private Map<MessageQueue, Long> decode(byte[] bytes) throws IOException {
        Content content = json.readValue(bytes, Content.class);
        Map<MessageQueue, Long> offsets = new TreeMap<>();
        for (QueueOffset entry : content.offsets()) {
            if (entry.offset() < 0) {
                throw new IllegalArgumentException("negative offset " + entry.offset());
            }
            offsets.put(new MessageQueue(entry.topic(), entry.brokerName(), entry.queueId()), entry.offset());
        }
        return offsets;
    }

    private Optional<Map<MessageQueue, Long>> parse(Path path) {
        try {
            return Optional.of(decode(Files.readAllBytes(path)));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (JacksonException | RuntimeException e) {
            LOG.log(Level.WARNING, "Offset file " + path + " of group " + group + " is corrupt: " + e.getMessage());
            return Optional.empty();
        } catch (IOException e) {
            LOG.log(Level.WARNING, "Could not read offset file " + path + " of group " + group, e);
            return Optional.empty();
        }
    }

    private Path sibling(String suffix) {
        return file.resolveSibling(file.getFileName() + suffix);
    }

    /**
     * The file's top-level object.
     *
     * @param group the consumer group, for people reading the file
     * @param offsets one entry per queue
     */
    public record Content(String group, List<QueueOffset> offsets) {

        /** Treats a missing list as a corrupt file. */
        public Content {
            if (offsets == null) {
                throw new IllegalArgumentException("no offsets list");
            }
        }
    }

    /**
     * One queue's next offset to consume.
     *
     * @param topic the topic
     * @param brokerName the broker name
     * @param queueId the queue id
     * @param offset the next offset to consume
     */
    public record QueueOffset(String topic, String brokerName, int queueId, long offset) {
    }
}
