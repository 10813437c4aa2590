package dev.ferry.docs;

import java.nio.file.Path;
import java.util.Optional;

/**
 * A fenced block of a Markdown document: where it starts, its language (empty when the fence names none), its text
 * and the marker on the line before it, if any.
 */
record DocBlock(Path document, int line, String language, String text, Optional<BlockMarker> marker) {
    /** Languages whose blocks are commands to a shell, which must be marked. */
    boolean isShell() {
        return language.equals("sh") || language.equals("bash") || language.equals("shell");
    }

    /** The marker's {@code id}, by which a test that runs the block finds it. */
    Optional<String> id() {
        return marker.map(m -> m.attributes().get("id"));
    }

    String where() {
        return document.getFileName() + ":" + line;
    }
}
