package dev.ferry.server.files;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.ferry.format.AtomicFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A JSON file of the broker's ({@code topics.json}, {@code consumerOffset.json}, {@code subscriptionGroup.json}, the
 * delay and transaction progress), written through {@link AtomicFile}: a crash never leaves it half-written, the
 * previous version stays as {@code .bak}, and a file that cannot be read is never silently replaced (the broker then
 * refuses to start, naming the file and its backup).
 *
 * <p>The reader's limits are set explicitly and well above anything the validators let in (names of at most 255
 * characters; a key of a topic and a group at most 520), so whatever the broker wrote, it reads back. Unquoted field
 * names are accepted, as RocketMQ's own files use them for integer keys.
 *
 * @param <T> the type stored
 */
public final class JsonFile<T> {
    private static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNameLength(1 << 20)
                            .maxStringLength(64 << 20)
                            .maxNestingDepth(64)
                            .build())
                    .build())
            .enable(JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private final AtomicFile file;
    private final Class<T> type;

    public JsonFile(Path path, Class<T> type) {
        this.file = new AtomicFile(path);
        this.type = type;
    }

    /**
     * The stored value: from the file, else from its backup, else empty when neither exists.
     *
     * @throws AtomicFile.UnreadableFileException when something is there but neither copy parses
     */
    public Optional<T> read() {
        return file.read(bytes -> MAPPER.readValue(bytes, type));
    }

    public Path path() {
        return file.path();
    }

    public void write(T value) {
        try {
            file.write(MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(value));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file.path(), e);
        }
    }
}
