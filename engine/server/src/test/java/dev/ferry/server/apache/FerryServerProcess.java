package dev.ferry.server.apache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.ChildJvm;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code ferry-server} in a child JVM, started as its launcher is, for restart and kill tests.
 * Its output goes to a file, which the test reads; a pipe would tie the child's fate to ours.
 */
final class FerryServerProcess implements AutoCloseable {
    private final Process process;
    private final Path output;
    private final int namesrvPort;

    private FerryServerProcess(Process process, Path output, int namesrvPort) {
        this.process = process;
        this.output = output;
        this.namesrvPort = namesrvPort;
    }

    static int[] freePorts(int count) throws IOException {
        int[] ports = new int[count];
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket(0);
                sockets.add(socket);
                ports[i] = socket.getLocalPort();
            }
        } finally {
            for (ServerSocket socket : sockets) {
                socket.close();
            }
        }
        return ports;
    }

    /** Starts the server and waits for its ready line. */
    static FerryServerProcess start(Path storeDir, int namesrvPort, int brokerPort, String... extraArgs)
            throws Exception {
        List<String> command = new ArrayList<>(ChildJvm.launcher("256m"));
        command.addAll(List.of("-cp", ChildJvm.classPath(), "dev.ferry.server.cli.FerryServerCommand", "--namesrv-port", Integer.toString(namesrvPort),
                "--broker-port", Integer.toString(brokerPort), "--store-dir", storeDir.toString()));
        command.addAll(List.of(extraArgs));
        Files.createDirectories(storeDir.getParent());
        Path output = Files.createTempFile(storeDir.getParent(), "ferry-server", ".log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(output.toFile()).start();
        FerryServerProcess server = new FerryServerProcess(process, output, namesrvPort);
        server.awaitLine("Ferry server ready", 60);
        return server;
    }

    /** Waits for a line containing {@code text}; fails with the output. */
    String awaitLine(String text, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        boolean exited = false;
        while (true) {
            for (String line : lines()) {
                if (line.contains(text)) {
                    return line;
                }
            }
            if (exited || System.nanoTime() > deadline) {
                throw new AssertionError("no line with '" + text + "' from ferry-server; it printed: " + lines());
            }
            exited = !process.isAlive(); // one more look after it ended: its last lines are in the file now
            Thread.sleep(100); // polling a log file, not asserting on time
        }
    }

    private List<String> lines() {
        try {
            return Files.readAllLines(output, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return List.of();
        }
    }

    String nameServer() {
        return "127.0.0.1:" + namesrvPort;
    }

    /** SIGTERM; returns once the server said it stopped cleanly and its process ended. */
    void stopGracefully() throws InterruptedException {
        process.destroy();
        awaitLine("Ferry server stopped cleanly", 60);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("ferry-server exits after SIGTERM").isTrue();
    }

    /** SIGKILL: no shutdown hook, no flush. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }
}
