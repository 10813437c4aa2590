package dev.ferry.server.broker;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * A topic's attributes as UPDATE_AND_CREATE_TOPIC changes them: {@code +key=value} sets, {@code -key} removes,
 * comma-separated; a new topic only takes {@code +}. Ferry knows Apache's {@code message.type} (NORMAL, FIFO, DELAY,
 * TRANSACTION, UNSPECIFIED); Apache's other keys select store features Ferry does not have and are refused by name,
 * as Apache refuses keys it does not know.
 */
final class TopicAttributes {
    static final String MESSAGE_TYPE = "message.type";
    private static final Set<String> MESSAGE_TYPES = Set.of("UNSPECIFIED", "NORMAL", "FIFO", "DELAY", "TRANSACTION");
    /** More than any topic needs: the request is bounded before it is split. */
    static final int MAX_LENGTH = 4096;

    private TopicAttributes() {
    }

    /**
     * The attributes after the change.
     *
     * @throws IllegalArgumentException with Apache's remark, when a key is unknown, a value invalid, a removal names a
     *         missing key, or a new topic is asked to remove one
     */
    static Map<String, String> alter(Map<String, String> current, String change, boolean create) {
        if (change == null || change.isBlank()) {
            return current;
        }
        if (change.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("attributes longer than " + MAX_LENGTH + " characters");
        }
        Map<String, String> next = new HashMap<>(current);
        for (String item : change.split(",")) {
            String entry = item.trim();
            if (entry.isEmpty()) {
                continue;
            }
            char op = entry.charAt(0);
            if (op == '+') {
                int eq = entry.indexOf('=');
                if (eq < 0) {
                    throw new IllegalArgumentException("attribute " + entry + " has no value");
                }
                String key = entry.substring(1, eq);
                String value = entry.substring(eq + 1);
                known(key);
                if ("MIXED".equals(value)) {
                    throw new IllegalArgumentException("MIXED message type is not supported.");
                }
                if (!MESSAGE_TYPES.contains(value)) {
                    throw new IllegalArgumentException("value is not in set: " + MESSAGE_TYPES);
                }
                next.put(key, value);
            } else if (op == '-') {
                if (create) {
                    throw new IllegalArgumentException("only add attribute is supported while creating topic. key: "
                            + entry.substring(1));
                }
                String key = entry.substring(1);
                known(key);
                if (next.remove(key) == null) {
                    throw new IllegalArgumentException("attempt to delete a nonexistent key: " + key);
                }
            } else {
                throw new IllegalArgumentException("attribute " + entry + " must start with + or -");
            }
        }
        return next;
    }

    private static void known(String key) {
        if (!MESSAGE_TYPE.equals(key)) {
            throw new IllegalArgumentException("unsupported key: " + key);
        }
    }
}
