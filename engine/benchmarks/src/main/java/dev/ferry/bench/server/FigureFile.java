package dev.ferry.bench.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/** The figures a measuring child JVM hands its parent: one {@code name<TAB>value} line each, in order. */
final class FigureFile {
    private FigureFile() {
    }

    static void write(Path file, Map<String, Double> figures) throws IOException {
        Files.writeString(file, figures.entrySet().stream().map(e -> e.getKey() + "\t" + e.getValue() + "\n")
                .collect(Collectors.joining()));
    }

    static Map<String, Double> read(Path file) throws IOException {
        Map<String, Double> figures = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file)) {
            int tab = line.indexOf('\t');
            if (tab < 0) {
                throw new IOException("not a figure line in " + file + ": " + line);
            }
            figures.put(line.substring(0, tab), Double.parseDouble(line.substring(tab + 1)));
        }
        return figures;
    }
}
