package dev.ferry.liberty.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Liberty's {@code bin/server} command of the test installation, and how the tests run a command and read it. */
public final class ServerCommand {
    private static final Path SERVER_SCRIPT = Path.of("target/liberty/wlp/bin/server");

    private ServerCommand() {
    }

    /**
     * Runs {@code server <action> <serverName> <options...>} with this JVM's Java and returns its output.
     *
     * @throws IllegalStateException when it fails or takes more than two minutes
     */
    public static String run(String action, String serverName, String... options) {
        List<String> line = new ArrayList<>(List.of(SERVER_SCRIPT.toString(), action, serverName));
        line.addAll(List.of(options));
        return output(line, Map.of("JAVA_HOME", System.getProperty("java.home")));
    }

    /** How a command ended: its exit status and what it printed (both streams). */
    public record Outcome(int status, String output) {
    }

    /**
     * Runs {@code server <action> <serverName>} like {@link #run} and returns how it ended, whatever its status: for
     * a caller that judges the server by what it then does rather than by the command's word.
     *
     * @throws IllegalStateException when it takes more than two minutes
     */
    public static Outcome attempt(String action, String serverName) {
        return outcome(List.of(SERVER_SCRIPT.toString(), action, serverName),
                Map.of("JAVA_HOME", System.getProperty("java.home")));
    }

    /**
     * Runs {@code line} with {@code environment} added to this JVM's and returns what it printed (both streams).
     *
     * @throws IllegalStateException when it exits with another status than 0 or takes more than two minutes
     */
    static String output(List<String> line, Map<String, String> environment) {
        Outcome outcome = outcome(line, environment);
        if (outcome.status() != 0) {
            throw new IllegalStateException(String.join(" ", line) + " failed: " + outcome.output());
        }
        return outcome.output();
    }

    private static Outcome outcome(List<String> line, Map<String, String> environment) {
        ProcessBuilder builder = new ProcessBuilder(line).redirectErrorStream(true);
        builder.environment().putAll(environment);
        try {
            Process process = builder.start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(2, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", line) + " took more than two minutes: " + output);
            }
            return new Outcome(process.exitValue(), output);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
