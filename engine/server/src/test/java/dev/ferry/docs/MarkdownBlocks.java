package dev.ferry.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** The fenced blocks of the project's Markdown: README.md and docs/*.md. */
final class MarkdownBlocks {
    private MarkdownBlocks() {
    }

    /** The repository's root: the nearest directory up from the working directory holding README.md and docs. */
    static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null) {
            if (Files.isRegularFile(dir.resolve("README.md")) && Files.isDirectory(dir.resolve("docs"))
                    && Files.isRegularFile(dir.resolve("pom.xml"))) {
                return dir;
            }
            dir = dir.getParent();
        }
        throw new IllegalStateException("no repository root above " + Path.of("").toAbsolutePath());
    }

    /** README.md, then docs/*.md by name. */
    static List<Path> documents(Path root) {
        List<Path> documents = new ArrayList<>();
        documents.add(root.resolve("README.md"));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(documents::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return documents;
    }

    static List<DocBlock> of(Path document) {
        List<String> lines;
        try {
            lines = Files.readAllLines(document);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<DocBlock> blocks = new ArrayList<>();
        int i = 0;
        while (i < lines.size()) {
            String line = lines.get(i);
            if (!line.startsWith("```")) {
                i++;
                continue;
            }
            String language = line.substring(3).strip();
            Optional<BlockMarker> marker = i > 0 ? BlockMarker.parse(lines.get(i - 1)) : Optional.empty();
            int start = i;
            StringBuilder text = new StringBuilder();
            i++;
            while (i < lines.size() && !lines.get(i).startsWith("```")) {
                text.append(lines.get(i)).append('\n');
                i++;
            }
            if (i == lines.size()) {
                throw new IllegalStateException(document.getFileName() + ":" + (start + 1) + ": a block never closed");
            }
            blocks.add(new DocBlock(document, start + 1, language, text.toString(), marker));
            i++;
        }
        return blocks;
    }

    /** The block a test runs, found by its marker's {@code id}. */
    static DocBlock byId(Path document, String id) {
        return of(document).stream().filter(b -> b.id().filter(id::equals).isPresent()).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(document.getFileName() + " has no block " + id));
    }
}
