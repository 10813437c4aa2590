package dev.ferry.docs;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the line before a shell block says of it: {@code <!-- run key=value key="a value" flag -->} (the docs harness,
 * or the test named by {@code by}, runs it) or {@code <!-- illustrative: why -->} (it cannot run here, and says why).
 *
 * <p>Keys of a run marker: {@code expect} (a line its output must contain; required), {@code exit} (the exit status,
 * 0 by default), {@code background} (a server: started, kept running until the document ends, and {@code expect}
 * is its ready line), {@code fresh} (stops the document's servers first), {@code timeout} (seconds, 120 by
 * default), {@code by} (the simple name of the test class that runs it instead of the harness) and {@code id} (how
 * that test finds it).
 */
record BlockMarker(Kind kind, String reason, Map<String, String> attributes) {
    enum Kind { RUN, ILLUSTRATIVE }

    private static final Pattern MARKER = Pattern.compile("^<!--\\s*(run|illustrative)\\b:?(.*?)-->\\s*$");
    private static final Pattern ATTRIBUTE = Pattern.compile("([a-z-]+)(?:=(\"[^\"]*\"|[^\\s\"]+))?");

    /** The marker on {@code line}, if it is one. */
    static Optional<BlockMarker> parse(String line) {
        Matcher matcher = MARKER.matcher(line.strip());
        if (!matcher.matches()) {
            return Optional.empty();
        }
        String rest = matcher.group(2).strip();
        if (matcher.group(1).equals("illustrative")) {
            return Optional.of(new BlockMarker(Kind.ILLUSTRATIVE, rest, Map.of()));
        }
        Map<String, String> attributes = new LinkedHashMap<>();
        Matcher attribute = ATTRIBUTE.matcher(rest);
        int at = 0;
        while (at < rest.length()) {
            if (Character.isWhitespace(rest.charAt(at))) {
                at++;
                continue;
            }
            if (!attribute.find(at) || attribute.start() != at) {
                throw new IllegalArgumentException("cannot read the run marker at: " + rest.substring(at));
            }
            String value = attribute.group(2);
            if (value == null) {
                value = "true";
            } else if (value.startsWith("\"")) {
                value = value.substring(1, value.length() - 1);
            }
            attributes.put(attribute.group(1), value);
            at = attribute.end();
        }
        return Optional.of(new BlockMarker(Kind.RUN, "", Map.copyOf(attributes)));
    }

    boolean runs() {
        return kind == Kind.RUN;
    }

    /** The test class that runs the block instead of the harness, if one does. */
    Optional<String> runBy() {
        return Optional.ofNullable(attributes.get("by"));
    }

    Optional<String> expect() {
        return Optional.ofNullable(attributes.get("expect"));
    }

    int exit() {
        return Integer.parseInt(attributes.getOrDefault("exit", "0"));
    }

    boolean background() {
        return attributes.containsKey("background");
    }

    boolean fresh() {
        return attributes.containsKey("fresh");
    }

    int timeoutSeconds() {
        return Integer.parseInt(attributes.getOrDefault("timeout", "120"));
    }
}
