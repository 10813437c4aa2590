package dev.ferry.strategies.offset;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ferry.api.MessageQueue;
import dev.ferry.format.AtomicFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One group's offsets as a JSON file, written through {@link AtomicFile}: a crash never leaves a torn file where a
 * reader looks, the previous version stays as {@code .bak}, and reading falls back to it when the file is missing or
 * corrupt. When neither can be read the consumer does not start (the error names both files) rather than start over
 * from its consume-from-where setting and replay or skip what the offsets recorded; RocketMQ likewise refuses to
 * start on a corrupt backup.
 *
 * <pre>{"group":"g","offsets":[{"topic":"T","brokerName":"b","queueId":0,"offset":42}]}</pre>
 */
final class OffsetFile {

    private final ObjectMapper json = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    private final String group;
    private final AtomicFile file;

    OffsetFile(String group, Path file) {
        this.group = group;
        this.file = new AtomicFile(file);
    }

    /**
     * @return the offsets in the file, else in the backup, else none when neither exists
     * @throws AtomicFile.UnreadableFileException when the file or its backup exists but neither can be read
     */
    Map<MessageQueue, Long> read() {
        return file.read(this::decode).orElse(Map.of());
    }

    /**
     * @param offsets the offsets to store, replacing what the file holds
     * @throws IOException if the file could not be written; the previous file is then still intact
     */
    void write(Map<MessageQueue, Long> offsets) throws IOException {
        List<QueueOffset> entries = new TreeMap<>(offsets).entrySet().stream()
                .map(entry -> new QueueOffset(entry.getKey().topic(), entry.getKey().brokerName(),
                        entry.getKey().queueId(), entry.getValue()))
                .toList();
        file.write(json.writeValueAsBytes(new Content(group, entries)));
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
