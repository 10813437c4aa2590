package dev.ferry.format;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * The one way Ferry writes a file it must be able to read back after any crash: topics, offsets, subscription
 * groups, checkpoints, a consumer's local offsets.
 *
 * <p>A write goes to {@code name.tmp}, which is forced; {@code name.bak} becomes a second link to the current file
 * (a forced copy where the file system has no links); the temporary file is renamed over the file, which replaces it
 * in one step; the directory is forced, so the renames survive a power loss too. Whatever moment a crash hits, the
 * file or its backup holds a complete version, the newest or the one before; and the file is never missing while it
 * is replaced, so a reader that polls it (a server's configuration monitor) never takes a write for a deletion.
 *
 * <p>A read takes the file if it decodes, else the backup if that decodes (with a warning), else nothing when
 * neither exists. When something is there but nothing decodes, it throws {@link UnreadableFileException} naming both
 * files: the caller must not start over from empty and overwrite what may be the only copy of its state. A file
 * found unreadable is moved aside to {@code name.corrupt} by the next write rather than over a good backup.
 *
 * <p>Thread-safe: writes are serialized on this object.
 */
public final class AtomicFile {
    private static final System.Logger LOG = System.getLogger(AtomicFile.class.getName());

    /** Turns a file's bytes into a value; any exception means the bytes are unreadable. */
    @FunctionalInterface
    public interface Decoder<T> {
        T decode(byte[] bytes) throws Exception;
    }

    private final Path file;
    private final Path backup;
    private final Path temporary;
    private final Path corrupt;
    private volatile boolean fileUnreadable;

    public AtomicFile(Path file) {
        this.file = file.toAbsolutePath();
        this.backup = sibling(".bak");
        this.temporary = sibling(".tmp");
        this.corrupt = sibling(".corrupt");
    }

    private Path sibling(String suffix) {
        return file.resolveSibling(file.getFileName() + suffix);
    }

    public Path path() {
        return file;
    }

    public Path backupPath() {
        return backup;
    }

    /**
     * The value stored: from the file, else from its backup; empty when neither exists.
     *
     * @throws UnreadableFileException when the file or its backup exists but neither decodes
     */
    public <T> Optional<T> read(Decoder<T> decoder) {
        Attempt<T> fromFile = attempt(file, decoder);
        if (fromFile.value != null) {
            return Optional.of(fromFile.value);
        }
        Attempt<T> fromBackup = attempt(backup, decoder);
        if (fromBackup.value != null) {
            fileUnreadable = fromFile.problem != null;
            LOG.log(System.Logger.Level.WARNING, "{0} {1}; read its backup {2} instead", file,
                    fromFile.problem == null ? "is missing" : "cannot be read (" + fromFile.problem + ")", backup);
            return Optional.of(fromBackup.value);
        }
        if (fromFile.problem == null && fromBackup.problem == null) {
            return Optional.empty();
        }
        throw new UnreadableFileException(file, describe(fromFile), backup, describe(fromBackup));
    }

    private static String describe(Attempt<?> attempt) {
        return attempt.problem == null ? "missing" : attempt.problem;
    }

    private static <T> Attempt<T> attempt(Path path, Decoder<T> decoder) {
        if (!Files.exists(path)) {
            return new Attempt<>(null, null);
        }
        try {
            T value = decoder.decode(Files.readAllBytes(path));
            return value == null ? new Attempt<>(null, "it decodes to nothing") : new Attempt<>(value, null);
        } catch (Exception e) {
            return new Attempt<>(null, e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private record Attempt<T>(T value, String problem) {
    }

    /**
     * Replaces the file's content durably and atomically.
     *
     * @throws IOException when it cannot; the file or its backup then still holds the previous version
     */
    public synchronized void write(byte[] content) throws IOException {
        DurableDirectories.create(file.getParent());
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buffer = ByteBuffer.wrap(content);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        }
        if (fileUnreadable && Files.exists(file)) {
            // An unreadable file must not take the place of a good backup.
            Files.move(file, corrupt, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } else if (Files.exists(file)) {
            keepAsBackup();
        }
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        DurableDirectories.force(file.getParent());
        fileUnreadable = false;
    }

    /** Makes the backup hold the current version while the file stays where it is. */
    private void keepAsBackup() throws IOException {
        Files.deleteIfExists(backup);
        try {
            Files.createLink(backup, file);
        } catch (UnsupportedOperationException | IOException noLinks) {
            // A crash part-way through the copy leaves the file itself whole, and the file is what a read takes.
            Files.copy(file, backup, StandardCopyOption.REPLACE_EXISTING);
            try (FileChannel channel = FileChannel.open(backup, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
        }
    }

    /** A file and its backup exist, and neither can be read. */
    public static final class UnreadableFileException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        UnreadableFileException(Path file, String fileProblem, Path backup, String backupProblem) {
            super("cannot read " + file + " (" + fileProblem + ") nor its backup " + backup + " (" + backupProblem
                    + "); refusing to start over without them: repair or remove both files");
        }
    }
}
