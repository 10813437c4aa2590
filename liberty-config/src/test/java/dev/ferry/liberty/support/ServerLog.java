package dev.ferry.liberty.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** A test server's {@code messages.log}. */
public final class ServerLog {
    private final Path file;

    public ServerLog(String serverName) {
        this.file = Path.of("target/liberty/wlp/usr/servers", serverName, "logs/messages.log");
    }

    /** The lines that contain {@code text}, in order. */
    public List<String> linesWith(String text) {
        try {
            // Decoded leniently: a server may log bytes that are not UTF-8.
            return new String(Files.readAllBytes(file), StandardCharsets.UTF_8).lines()
                    .filter(l -> l.contains(text)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Path file() {
        return file;
    }
}
