package dev.ferry.bench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FigureFileTest {
    @TempDir
    Path dir;

    @Test
    void shouldReadBackTheFiguresInTheirOrder() throws IOException {
        Map<String, Double> figures = new LinkedHashMap<>();
        figures.put("lateness p99 (ms)", 1_083.4);
        figures.put("missing", 0.0);
        Path file = dir.resolve("run.results");

        FigureFile.write(file, figures);

        assertThat(FigureFile.read(file)).containsExactlyEntriesOf(figures);
    }

    @Test
    void shouldRejectALineWithoutAValue() throws IOException {
        Path file = Files.writeString(dir.resolve("torn.results"), "lateness p99 (ms)\n");

        assertThatThrownBy(() -> FigureFile.read(file)).isInstanceOf(IOException.class)
                .hasMessageContaining("not a figure line");
    }
}
