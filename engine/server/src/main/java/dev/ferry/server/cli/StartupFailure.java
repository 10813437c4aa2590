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

    /** A bad option or option value: picocli's message, and where the options are listed. */
    static String usageLine(CommandLine.ParameterException failure) {
        return oneLine(failure.getMessage()) + " (" + failure.getCommandLine().getCommandSpec().qualifiedName()
                + " --help lists the options)";
    }

    static String line(Exception failure) {
        String message = failure instanceof StartupException || failure instanceof IllegalArgumentException
                || failure instanceof CommandLine.ParameterException
                ? failure.getMessage()
                : "cannot start: " + failure + " (--verbose prints where)";
        return oneLine(message);
    }

    /** One line, whatever a message holds. */
    private static String oneLine(String message) {
        return String.valueOf(message).replaceAll("\\s*[\\r\\n]+\\s*", " ");
    }
}
