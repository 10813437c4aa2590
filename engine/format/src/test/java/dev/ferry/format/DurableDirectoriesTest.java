package dev.ferry.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Directories created with their entries forced. */
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
}
