package dev.ferry.format;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Makes directory entries durable. Forcing a file covers its bytes, not its name: a file created in or renamed into a
 * directory, and a directory created, can vanish with a power loss (not with a process crash) unless the directory
 * holding the entry is forced as well.
 */
public final class DurableDirectories {
    private DurableDirectories() {
    }

    /** Creates {@code dir} and its missing parents, forcing the parent of each directory created. */
    public static void create(Path dir) throws IOException {
        Deque<Path> missing = new ArrayDeque<>();
        for (Path path = dir.toAbsolutePath(); path != null && !Files.isDirectory(path); path = path.getParent()) {
            missing.push(path);
        }
        Files.createDirectories(dir);
        for (Path created : missing) {
            force(created.getParent());
        }
    }

    /** Forces the entries of {@code dir}: the files and directories created in it, renamed into or out of it. */
    public static void force(Path dir) throws IOException {
        try (FileChannel directory = FileChannel.open(dir, StandardOpenOption.READ)) {
            directory.force(true);
        }
    }
}
