package dev.ferry.bench.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A broker (Ferry's or Apache's) running in a child JVM, its output in a file. */
final class ServerProcess implements AutoCloseable {
    final String name;
    final String nameServer;
    private final Process process;
    private final long startedNanos;
    final Path log;

    private ServerProcess(String name, String nameServer, Process process, long startedNanos, Path log) {
        this.name = name;
        this.nameServer = nameServer;
        this.process = process;
        this.startedNanos = startedNanos;
        this.log = log;
    }

    static ServerProcess start(String name, String nameServer, List<String> command, Path workDir)
            throws IOException {
        Files.createDirectories(workDir);
        Path log = workDir.resolve(name + ".log");
        long started = System.nanoTime();
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new ServerProcess(name, nameServer, process, started, log);
    }

    long startedNanos() {
        return startedNanos;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Resident memory of the process, from /proc, in MiB. */
    double residentMib() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"),
                StandardCharsets.UTF_8)) {
            if (line.startsWith("VmRSS:")) {
                String[] parts = line.trim().split("\\s+");
                return Long.parseLong(parts[1]) / 1024.0;
            }
        }
        throw new IOException("no VmRSS for process " + process.pid());
    }

    /** CPU time the process has used so far (user and system), in nanoseconds. */
    long cpuNanos() {
        return process.info().totalCpuDuration().orElseThrow(() -> new IllegalStateException(
                "no CPU time for process " + process.pid())).toNanos();
    }

    @Override
    public void close() {
        process.destroy(); // SIGTERM: lets a flight recording be written on exit
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            // told to stop waiting: the server must not outlive the run all the same
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
