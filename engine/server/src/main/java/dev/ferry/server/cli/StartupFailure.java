package dev.ferry.server.cli;

import dev.ferry.server.StartupException;
import picocli.CommandLine;

/**
 * The one line a failed start prints: the message of the failure that names the config key and what is wrong with
 * it, or, for a failure nobody foresaw, its kind and message with the hint to run again with --verbose.
 */
final class StartupFailure {
    private StartupFailure() {
    }

    static String line(Exception failure) {
        String message = failure instanceof StartupException || failure instanceof IllegalArgumentException
                || failure instanceof CommandLine.ParameterException
                ? failure.getMessage()
                : "cannot start: " + failure + " (--verbose prints where)";
        // one line, whatever a message holds
        return String.valueOf(message).replaceAll("\\s*[\\r\\n]+\\s*", " ");
    }
}
