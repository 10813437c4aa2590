package dev.ferry.bench.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A process's part of the history: one file, each op appended with one write before the process acts on it (a
 * consumer logs a message before acknowledging it), so a SIGKILL loses no line the process acted on; the system's
 * page cache holds it, no fsync is needed for a process to die.
 */
final class HistoryLog implements AutoCloseable {
    private final FileChannel channel;

    HistoryLog(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        this.channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND);
    }

    synchronized void write(Op op) {
        ByteBuffer line = ByteBuffer.wrap((op.line() + "\n").getBytes(StandardCharsets.UTF_8));
        try {
            while (line.hasRemaining()) {
                channel.write(line);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the history", e);
        }
    }

    /** Every op of the {@code *.history} files in {@code dir}, torn lines left out. */
    static List<Op> readAll(Path dir) throws IOException {
        List<Op> ops = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".history")).sorted().toList()) {
                for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                    Op op = Op.parse(line);
                    if (op != null) {
                        ops.add(op);
                    }
                }
            }
        }
        return ops;
    }

    @Override
    public synchronized void close() throws IOException {
        channel.close();
    }
}
