package dev.ferry.format;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A process tests start, kill, pause and start again on the same command (a name server, a broker, a client), its
 * output appended to a file with a line {@code --- start} before each run: a pipe would tie the child's fate to the
 * test's. Shared with other modules' tests and the fault harness through this module's test jar.
 */
public final class ChildProcess implements AutoCloseable {
    private final String name;
    private final List<String> command;
    private final Path log;
    private final String readyText;
    private Process process;
    private boolean paused;

    /** A process run by {@code command}, its output in {@code log}, ready once it prints {@code readyText}. */
    public ChildProcess(String name, List<String> command, Path log, String readyText) {
        this.name = name;
        this.command = List.copyOf(command);
        this.log = log;
        this.readyText = readyText;
    }

    /** The JVM command line of {@code mainClass} with {@code args}: {@link ChildJvm#launcher} and {@code classPath}. */
    public static List<String> java(String heap, String classPath, String mainClass, List<String> jvmOptions,
                                    List<String> args) {
        List<String> command = new ArrayList<>(ChildJvm.launcher(heap));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", classPath, mainClass));
        command.addAll(args);
        return command;
    }

    public String name() {
        return name;
    }

    /** Starts the process and waits up to {@code seconds} for its ready line. */
    public synchronized void start(int seconds) throws IOException, InterruptedException {
        Files.createDirectories(log.getParent());
        Files.writeString(log, "--- start\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
        process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        paused = false;
        awaitOutput(readyText, seconds);
    }

    /** Waits for a line of the current run containing {@code text}. */
    public void awaitOutput(String text, int seconds) throws InterruptedException, IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        boolean exited = false;
        while (true) {
            if (currentRun().stream().anyMatch(line -> line.contains(text))) {
                return;
            }
            if (exited || System.nanoTime() > deadline) {
                throw new IOException(name + " printed no line with '" + text + "' (log " + log + "): "
                        + tail(20));
            }
            exited = !process.isAlive(); // one more look: its last lines are in the file now
            TimeUnit.MILLISECONDS.sleep(100); // polling a file
        }
    }

    private List<String> currentRun() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return lines.subList(lines.lastIndexOf("--- start") + 1, lines.size());
        } catch (IOException e) {
            return List.of();
        }
    }

    /** The last lines of the current run, for a failure's message. */
    public String tail(int lines) {
        List<String> run = currentRun();
        return String.join("\n", run.subList(Math.max(0, run.size() - lines), run.size()));
    }

    public synchronized boolean isAlive() {
        return process != null && process.isAlive();
    }

    public synchronized boolean isPaused() {
        return paused;
    }

    /** SIGKILL: no shutdown hook, nothing flushed that was not. */
    public synchronized void kill() throws InterruptedException {
        if (paused) {
            resume();
        }
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException(name + " did not die");
        }
    }

    /** SIGSTOP: a pause as long as a full GC's, connections open and silent. */
    public synchronized void pause() {
        signal("STOP");
        paused = true;
    }

    /** SIGCONT after {@link #pause()}. */
    public synchronized void resume() {
        signal("CONT");
        paused = false;
    }

    private void signal(String which) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + which, Long.toString(process.pid())).inheritIO().start();
            if (kill.waitFor() != 0) {
                throw new IllegalStateException("kill -" + which + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot signal " + name, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted signalling " + name, e);
        }
    }

    /** SIGTERM and a wait of up to {@code seconds}; SIGKILL after that. */
    public synchronized void stop(int seconds) throws InterruptedException {
        if (process == null || !process.isAlive()) {
            return;
        }
        if (paused) {
            resume();
        }
        process.destroy();
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Override
    public void close() {
        try {
            stop(10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
