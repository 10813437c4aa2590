package dev.ferry.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Directories created, and files created in them, with their entries forced. */
class DurableDirectoriesTest {
    @TempDir
    Path dir;

    @Test
    void shouldCreateEveryMissingLevelAndAcceptOnesThatExist() throws IOException {
        Path queue = dir.resolve("consumequeue").resolve("Topic").resolve("3");

        DurableDirectories.create(queue);
        DurableDirectories.create(queue);
        DurableDirectories.create(dir.resolve("consumequeue").resolve("Other"));

        assertThat(queue).isDirectory();
        assertThat(dir.resolve("consumequeue").resolve("Other")).isDirectory();
    }

    @Test
    void shouldRefuseToForceADirectoryThatDoesNotExist() {
        assertThatThrownBy(() -> DurableDirectories.force(dir.resolve("missing")))
            .isInstanceOf(NoSuchFileException.class);
    }

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
