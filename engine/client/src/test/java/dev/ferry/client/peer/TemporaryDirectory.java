package dev.ferry.client.peer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The files a cluster under test leaves behind: removed when it closes, so suites do not fill the temp directory. */
final class TemporaryDirectory {
    private TemporaryDirectory() {
    }

    /** Deletes {@code root} and everything under it, as far as it can; what it cannot is the OS's temp cleanup's. */
    static void deleteQuietly(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // a file that vanished or cannot be listed is left to the same cleanup
        }
    }
}
