package dev.ferry.store;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A store makes the directories it needs, and fills them. */
class StoreDirectoriesTest {
    @TempDir
    Path dir;

    @Test
    void shouldOpenAStoreWhoseDirectoriesDoNotExistYetAndFillThem() throws IOException {
        Path store = dir.resolve("new").resolve("store");
        StoreConfig config = TestMessages.smallConfig(store).build();
        try (MessageStore opened = MessageStore.builder(config).open()) {
            opened.append(TestMessages.message("Durable", 2, "body"));
            Path queue = store.resolve("consumequeue").resolve("Durable").resolve("2");
            await().atMost(Duration.ofSeconds(10)).until(() -> Files.isDirectory(queue) && hasFile(queue, 20));
            await().atMost(Duration.ofSeconds(10)).until(() -> hasFile(store.resolve("index"), 17));
        }
    }

    /** Whether {@code directory} holds a file named by {@code digits} digits. */
    private static boolean hasFile(Path directory, int digits) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.anyMatch(path -> path.getFileName().toString().matches("\\d{" + digits + "}"));
        }
    }
}
