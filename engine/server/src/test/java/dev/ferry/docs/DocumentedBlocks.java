package dev.ferry.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * For a test that runs a documented block itself (its marker says {@code by=TheTest id=...}) because the block needs
 * a server the test started: an application server, say, on a port of its own.
 */
public final class DocumentedBlocks {
    private DocumentedBlocks() {
    }

    /**
     * Runs the block {@code id} of {@code document} (a path from the repository root, such as {@code README.md}) as
     * the harness would, with each documented port in {@code ports} replaced by the test's; checks its exit status
     * and expected line and returns its output.
     */
    public static String run(String document, String id, Map<Integer, Integer> ports) {
        Path root = MarkdownBlocks.repositoryRoot();
        Path scratch;
        try {
            scratch = Files.createTempDirectory("documented-block-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try (DocShell shell = new DocShell(root, scratch, ports)) {
            return shell.run(MarkdownBlocks.byId(root.resolve(document), id));
        } finally {
            DocShell.deleted(scratch);
        }
    }
}
