package dev.ferry.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every block of README.md and docs/*.md names its language, and every shell block says whether it runs (and which
 * line of its output shows it worked) or why it cannot; a block run by a test of its own names a test that exists and
 * looks it up. What {@link DocumentedCommandsTest} runs is only trustworthy if nothing escapes these rules.
 */
class DocumentsMarkedTest {
    private final Path root = MarkdownBlocks.repositoryRoot();

    @Test
    void shouldNameTheLanguageOfEveryBlock() {
        List<String> bare = new ArrayList<>();
        for (Path document : MarkdownBlocks.documents(root)) {
            MarkdownBlocks.of(document).stream().filter(b -> b.language().isEmpty()).forEach(b -> bare.add(b.where()));
        }
        assertThat(bare).as("blocks without a language (sh, java, xml, properties, text...)").isEmpty();
    }

    @Test
    void shouldMarkEveryShellBlockAsRunOrIllustrativeWithAReason() {
        List<String> problems = new ArrayList<>();
        for (Path document : MarkdownBlocks.documents(root)) {
            for (DocBlock block : MarkdownBlocks.of(document)) {
                if (!block.isShell()) {
                    continue;
                }
                Optional<BlockMarker> marker = block.marker();
                if (marker.isEmpty()) {
                    problems.add(block.where() + ": no <!-- run ... --> or <!-- illustrative: why --> before it");
                } else if (!marker.get().runs() && marker.get().reason().isBlank()) {
                    problems.add(block.where() + ": illustrative without a reason");
                } else if (marker.get().runs() && marker.get().expect().isEmpty()) {
                    problems.add(block.where() + ": runs, but names no line of its output to expect");
                }
            }
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void shouldRunEveryBlockMarkedForATestInThatTest() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Path document : MarkdownBlocks.documents(root)) {
            for (DocBlock block : MarkdownBlocks.of(document)) {
                Optional<String> runBy = block.marker().flatMap(BlockMarker::runBy);
                if (runBy.isEmpty()) {
                    continue;
                }
                Optional<String> id = block.id();
                Optional<Path> test = testSource(runBy.get());
                if (id.isEmpty()) {
                    problems.add(block.where() + ": run by " + runBy.get() + " but has no id to be found by");
                } else if (test.isEmpty()) {
                    problems.add(block.where() + ": no test class " + runBy.get());
                } else if (!Files.readString(test.get()).contains("\"" + id.get() + "\"")) {
                    problems.add(block.where() + ": " + runBy.get() + " never looks up \"" + id.get() + "\"");
                }
            }
        }
        assertThat(problems).isEmpty();
    }

    private Optional<Path> testSource(String simpleName) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> p.getFileName().toString().equals(simpleName + ".java"))
                    .filter(p -> p.toString().contains("/src/test/java/")).findFirst();
        }
    }
}
