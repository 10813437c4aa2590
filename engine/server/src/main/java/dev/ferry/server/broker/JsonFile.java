package dev.ferry.server.broker;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * A JSON file written so that a crash never leaves it half-written: the new content goes to a
 * temporary file that is forced to disk and then moved over the old one, whose previous
 * content is kept as {@code .bak}. Reading falls back to the backup when the file is missing
 * or unreadable.
 *
 * @param <T> the type stored
 */
final class JsonFile<T> {
    private static final System.Logger LOG = System.getLogger(JsonFile.class.getName());
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private final Path path;
    private final Path backup;
    private final Class<T> type;

    JsonFile(Path path, Class<T> type) {
        this.path = path;
        this.backup = path.resolveSibling(path.getFileName() + ".bak");
        this.type = type;
    }

    /** The stored value: from the file, else from its backup, else empty. */
    Optional<T> read() {
        for (Path candidate : new Path[] {path, backup}) {
            if (!Files.exists(candidate)) {
                continue;
            }
            try {
                return Optional.of(MAPPER.readValue(candidate.toFile(), type));
            } catch (IOException e) {
                LOG.log(System.Logger.Level.WARNING, "cannot read {0}, trying its backup: {1}", candidate, e.getMessage());
            }
        }
        return Optional.empty();
    }

    synchronized void write(T value) {
        try {
            Files.createDirectories(path.getParent());
            byte[] bytes = MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(value);
            Path temp = path.resolveSibling(path.getFileName() + ".tmp");
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
            if (Files.exists(path)) {
                Files.copy(path, backup, StandardCopyOption.REPLACE_EXISTING);
            }
            try {
                Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, path, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + path, e);
        }
    }
}
