package dev.ferry.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every shell block of README.md and docs/*.md marked {@code <!-- run ... -->} (and not run by a test of its
 * own), document by document, in order, as a reader would run them one after the other: against the project's build
 * (this runs after packaging), on the ports they name and in a scratch directory. A block that fails as written
 * fails here.
 */
@Tag("integration")
class DocumentedCommandsTest {
    @TestFactory
    Stream<DynamicTest> everyRunnableBlockRunsAsWritten() {
        Path root = MarkdownBlocks.repositoryRoot();
        Path work = Path.of("target", "documented-commands").toAbsolutePath();
        return MarkdownBlocks.documents(root).stream()
                .filter(document -> !harnessBlocks(document).isEmpty())
                .map(document -> DynamicTest.dynamicTest(root.relativize(document).toString(), () -> {
                    assertThat(DocShell.documentedPortsInUse()).as("ports the documents' servers listen on, in use "
                            + "by something else: stop it").isEmpty();
                    String name = document.getFileName().toString().replace(".md", "");
                    try (DocShell shell = new DocShell(root, DocShell.deleted(work.resolve(name)), Map.of())) {
                        for (DocBlock block : harnessBlocks(document)) {
                            shell.run(block);
                        }
                    }
                }));
    }

    private static List<DocBlock> harnessBlocks(Path document) {
        return MarkdownBlocks.of(document).stream()
                .filter(block -> block.marker().filter(m -> m.runs() && m.runBy().isEmpty()).isPresent())
                .toList();
    }
}
