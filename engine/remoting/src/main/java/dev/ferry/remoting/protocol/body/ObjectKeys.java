package dev.ferry.remoting.protocol.body;

/**
 * Apache's peers write a map whose keys are objects (a {@code Map<MessageQueue, ...>} in consume statistics, offset
 * resets, running info) with each key as a JSON object: <code>{{"brokerName":"b","queueId":0,"topic":"t"}:5}</code>.
 * That is not JSON. {@link #quoted} turns every such key into a JSON string holding the object, so a standard parser
 * reads the map and a key deserializer reads the object back out of the string.
 */
final class ObjectKeys {
    /** Deeper nesting than any body of the protocol has; beyond it the body is refused, not scanned. */
    static final int MAX_DEPTH = 256;

    private ObjectKeys() {
    }

    /** Whether the text may hold an object key at all: an object opening right after another's opening or a comma. */
    static boolean mayHaveObjectKeys(String json) {
        return json.contains("{{") || json.contains(",{") || json.contains("{ {") || json.contains(", {");
    }

    /**
     * The text with every object key written as a JSON string; everything else as it was.
     *
     * @throws BodyFormatException when the text nests deeper than {@link #MAX_DEPTH} or an object key is not closed
     */
    static String quoted(String json) {
        StringBuilder out = new StringBuilder(json.length() + 64);
        boolean[] objectAt = new boolean[MAX_DEPTH];
        int depth = 0;
        boolean expectKey = false;
        int i = 0;
        while (i < json.length()) {
            char c = json.charAt(i);
            if (c == '"' || c == '\'') {
                int end = stringEnd(json, i);
                out.append(json, i, end);
                i = end;
                continue;
            }
            if (c == '{' && depth > 0 && objectAt[depth - 1] && expectKey) {
                int end = objectEnd(json, i);
                appendAsString(out, json, i, end);
                i = end;
                expectKey = false;
                continue;
            }
            switch (c) {
                case '{', '[' -> {
                    if (depth == MAX_DEPTH) {
                        throw new BodyFormatException("body nests deeper than " + MAX_DEPTH + " levels");
                    }
                    objectAt[depth++] = c == '{';
                    expectKey = c == '{';
                }
                case '}', ']' -> {
                    depth = Math.max(0, depth - 1);
                    expectKey = false;
                }
                case ',' -> expectKey = depth > 0 && objectAt[depth - 1];
                case ':' -> expectKey = false;
                default -> {
                }
            }
            out.append(c);
            i++;
        }
        return out.toString();
    }

    /** The index just past the string literal opening at {@code start}. */
    private static int stringEnd(String json, int start) {
        char quote = json.charAt(start);
        int i = start + 1;
        while (i < json.length()) {
            char c = json.charAt(i);
            if (c == '\\') {
                i += 2;
            } else if (c == quote) {
                return i + 1;
            } else {
                i++;
            }
        }
        return json.length();
    }

    /** The index just past the object opening at {@code start}. */
    private static int objectEnd(String json, int start) {
        int depth = 0;
        int i = start;
        while (i < json.length()) {
            char c = json.charAt(i);
            if (c == '"' || c == '\'') {
                i = stringEnd(json, i);
                continue;
            }
            if (c == '{') {
                if (++depth > MAX_DEPTH) {
                    throw new BodyFormatException("body nests deeper than " + MAX_DEPTH + " levels");
                }
            } else if (c == '}' && --depth == 0) {
                return i + 1;
            }
            i++;
        }
        throw new BodyFormatException("an object key is not closed");
    }

    private static void appendAsString(StringBuilder out, String json, int start, int end) {
        out.append('"');
        for (int i = start; i < end; i++) {
            char c = json.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else {
                // outside its strings a key's control characters are layout only
                out.append(c < 0x20 ? ' ' : c);
            }
        }
        out.append('"');
    }
}
