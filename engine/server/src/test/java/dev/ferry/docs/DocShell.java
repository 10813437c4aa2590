package dev.ferry.docs;

import dev.ferry.format.ChildJvm;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Runs the shell blocks of one document as a reader would, in order, against the project's build.
 *
 * <p>The working directory is a scratch directory that links every top-level entry of the repository but
 * {@code target}, so that {@code engine/server/target/ferry-server.jar} is the suite's own build while what a block
 * writes under {@code target/} stays in the scratch directory. The ports are those the document names, RocketMQ's
 * defaults (a server started without port flags listens on them, so they cannot be swapped for others), except those
 * a test gives: the port of a server it started itself. {@code mvn} is a stand-in that accepts only a build the suite
 * has already made ({@code -DskipTests ... package|install}) and refuses any other goal; {@code mqadmin} and
 * {@code bin/mqadmin} run Apache's admin tool from the test class path, with the scratch directory as its
 * {@code ROCKETMQ_HOME} (so its {@code conf/tools.yml} is the document's). A block fails on its exit status, on
 * output without its expected line, and on a stack trace in its output: a command that shows a reader one has not
 * worked as written, whatever its exit status (mqadmin's is 0 after a failed command).
 */
final class DocShell implements AutoCloseable {
    /** Ports the documents use: RocketMQ's defaults, a second name server, slaves and further brokers. */
    static final Set<Integer> DOCUMENTED_PORTS = Set.of(9876, 9877, 10911, 10912, 10921, 10922, 10931, 10932, 5557);
    private static final Pattern STACK_TRACE = Pattern.compile("(?m)^(\\tat |Caused by: )");
    private static final Pattern PORT = Pattern.compile("(?<![0-9.])(\\d{4,5})(?![0-9])");
    private static final Duration READY_POLL = Duration.ofMillis(100);

    private final Path scratch;
    private final Map<Integer, Integer> ports;
    private final List<Process> servers = new ArrayList<>();
    private int blocksRun;

    /**
     * @param scratch an empty directory to work in
     * @param fixedPorts ports a test chose (its running server's), by the port the document names
     */
    DocShell(Path root, Path scratch, Map<Integer, Integer> fixedPorts) {
        this.scratch = scratch;
        this.ports = Map.copyOf(fixedPorts);
        try {
            Files.createDirectories(scratch);
            try (Stream<Path> entries = Files.list(root)) {
                for (Path entry : (Iterable<Path>) entries::iterator) {
                    String name = entry.getFileName().toString();
                    if (!name.equals("target") && !name.startsWith(".")) {
                        Files.createSymbolicLink(scratch.resolve(name), entry);
                    }
                }
            }
            Path bin = Files.createDirectories(scratch.resolve(".doc-bin"));
            script(bin.resolve("mvn"), """
                    #!/bin/bash
                    # The suite has built the project: a build without tests is already done; nothing else runs here.
                    args=" $* "
                    if [[ "$args" == *" -DskipTests "* && ( "$args" == *" package "* || "$args" == *" install "* ) ]]
                    then
                        echo "[docs] the build is the suite's own: mvn $*"; exit 0
                    fi
                    echo "[docs] not run here: mvn $* (mark the block illustrative, with why)" >&2
                    exit 97
                    """);
            String tools = """
                    #!/bin/bash
                    export ROCKETMQ_HOME="${ROCKETMQ_HOME:-%s}"
                    exec java %s -Drocketmq.home.dir="$ROCKETMQ_HOME" -cp '%s' \
                    org.apache.rocketmq.tools.command.MQAdminStartup "$@"
                    """.formatted(scratch, String.join(" ", ChildJvm.OPTIONS), ChildJvm.classPath());
            script(bin.resolve("mqadmin"), tools);
            script(Files.createDirectories(scratch.resolve("bin")).resolve("mqadmin"), tools);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void script(Path file, String text) throws IOException {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** The block's text as it runs here: each port a test fixed replaced. */
    String substituted(String text) {
        Matcher matcher = PORT.matcher(text);
        StringBuilder out = new StringBuilder();
        while (matcher.find()) {
            Integer fixed = ports.get(Integer.parseInt(matcher.group(1)));
            matcher.appendReplacement(out, fixed != null ? fixed.toString() : matcher.group(1));
        }
        matcher.appendTail(out);
        return out.toString();
    }

    /** The documented ports something listens on now, which a document's servers would need. */
    static List<Integer> documentedPortsInUse() {
        return DOCUMENTED_PORTS.stream().filter(port -> !free(port)).sorted().toList();
    }

    /** Runs a marked block and checks its exit status and output; returns its output. */
    String run(DocBlock block) {
        BlockMarker marker = block.marker().filter(BlockMarker::runs)
                .orElseThrow(() -> new IllegalArgumentException(block.where() + " is not marked to run"));
        if (marker.fresh()) {
            stopServers();
        }
        String expect = marker.expect()
                .orElseThrow(() -> new IllegalArgumentException(block.where() + ": its marker names no expect"));
        Path log = scratch.resolve("block-" + (++blocksRun) + ".log");
        ProcessBuilder builder = new ProcessBuilder("bash", "-e", "-o", "pipefail", "-c", substituted(block.text()))
                .directory(scratch.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("PATH", scratch.resolve(".doc-bin") + ":" + System.getenv("PATH"));
        builder.environment().remove("FERRY_ADMIN_SECRET_KEY");
        builder.environment().remove("NAMESRV_ADDR");
        try {
            Process process = builder.start();
            if (marker.background()) {
                servers.add(process);
                awaitReady(block, process, log, expect, marker.timeoutSeconds());
                return read(log);
            }
            if (!process.waitFor(marker.timeoutSeconds(), TimeUnit.SECONDS)) {
                destroyTree(process);
                throw new AssertionError(block.where() + ": still running after " + marker.timeoutSeconds()
                        + " s; its output:\n" + read(log));
            }
            String output = read(log);
            if (process.exitValue() != marker.exit()) {
                throw new AssertionError(block.where() + ": exit status " + process.exitValue() + ", not "
                        + marker.exit() + "; its output:\n" + output);
            }
            if (STACK_TRACE.matcher(output).find()) {
                throw new AssertionError(block.where() + ": printed a stack trace:\n" + output);
            }
            if (!output.contains(expect)) {
                throw new AssertionError(block.where() + ": its output has no \"" + expect + "\":\n" + output);
            }
            return output;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    private void awaitReady(DocBlock block, Process process, Path log, String ready, int timeoutSeconds)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (!read(log).contains(ready)) {
            if (!process.isAlive()) {
                throw new AssertionError(block.where() + ": ended (exit status " + process.exitValue()
                        + ") before saying \"" + ready + "\":\n" + read(log));
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(block.where() + ": not ready after " + timeoutSeconds + " s:\n" + read(log));
            }
            Thread.sleep(READY_POLL.toMillis()); // polling a log file that has no notification
        }
    }

    private static String read(Path log) {
        try {
            return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Stops the servers the document started, as Ctrl-C would: SIGTERM to each process, then waits. */
    void stopServers() {
        for (Process server : servers) {
            destroyTree(server);
        }
        servers.clear();
    }

    private static void destroyTree(Process process) {
        List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
        tree.add(process.toHandle());
        tree.forEach(ProcessHandle::destroy);
        for (ProcessHandle handle : tree) {
            try {
                handle.onExit().get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                handle.destroyForcibly();
            }
        }
    }

    @Override
    public void close() {
        stopServers();
    }

    /** {@code dir} removed with all it holds (links, not what they point to), ready to be made anew. */
    static Path deleted(Path dir) {
        if (!Files.exists(dir)) {
            return dir;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dir;
    }

    private static boolean free(int port) {
        try {
            new ServerSocket(port, 1, InetAddress.getLoopbackAddress()).close();
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
