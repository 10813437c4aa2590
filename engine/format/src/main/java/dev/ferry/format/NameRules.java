package dev.ferry.format;

/**
 * The one set of rules for the names of topics and groups, wherever a name enters Ferry: a request to the
 * broker or the name server, an application's message, a consumer's settings, a file read at start-up.
 *
 * <p>RocketMQ's rules: letters, digits, {@code %}, {@code |}, {@code _} and {@code -}; a topic at most
 * {@value #TOPIC_MAX_LENGTH} characters, a group at most {@value #GROUP_MAX_LENGTH}. A group's retry and
 * dead-letter topics ({@code %RETRY%group}, {@code %DLQ%group}) are valid topics whatever the group's length, so
 * that a valid group always has working retries; the store gives such long names directory names that fit.
 *
 * <p>Problems are returned as text that names the field and shows at most {@value #SHOWN_CHARACTERS} characters of
 * the bad name, so that a remark or a log line stays small however long the name that came in.
 */
public final class NameRules {
    /** RocketMQ's longest topic name. */
    public static final int TOPIC_MAX_LENGTH = 127;
    /** RocketMQ's longest group name (its client's {@code Validators.CHARACTER_MAX_LENGTH}). */
    public static final int GROUP_MAX_LENGTH = 255;
    /** The longest topic name there is: a retry topic of the longest group. */
    public static final int DERIVED_TOPIC_MAX_LENGTH = SystemTopics.RETRY_PREFIX.length() + GROUP_MAX_LENGTH;
    /** The characters allowed, as RocketMQ states them. */
    public static final String ALLOWED = "^[%|a-zA-Z0-9_-]+$";
    static final int SHOWN_CHARACTERS = 64;

    private static final boolean[] LEGAL = new boolean[128];

    static {
        for (char c = 'a'; c <= 'z'; c++) {
            LEGAL[c] = true;
            LEGAL[Character.toUpperCase(c)] = true;
        }
        for (char c = '0'; c <= '9'; c++) {
            LEGAL[c] = true;
        }
        for (char c : new char[] {'%', '|', '_', '-'}) {
            LEGAL[c] = true;
        }
    }

    private NameRules() {
    }

    /** Why {@code topic} is not a valid topic name, or {@code null} when it is. */
    public static String topicProblem(String topic) {
        return topicProblem("topic", topic);
    }

    /**
     * Why {@code topic} is not a valid topic name, or {@code null} when it is.
     *
     * @param field the name of the field it came in, for the message
     */
    public static String topicProblem(String field, String topic) {
        String problem = characterProblem(field, topic);
        if (problem != null) {
            return problem;
        }
        if (topic.length() <= TOPIC_MAX_LENGTH) {
            return null;
        }
        String group = SystemTopics.groupOf(topic);
        if (group != null && !group.isEmpty() && group.length() <= GROUP_MAX_LENGTH) {
            return null;
        }
        return field + " " + shown(topic) + " is " + topic.length() + " characters long; at most "
                + TOPIC_MAX_LENGTH + " are allowed";
    }

    /** Why {@code group} is not a valid group name, or {@code null} when it is. */
    public static String groupProblem(String group) {
        return groupProblem("group", group);
    }

    /**
     * Why {@code group} is not a valid group name, or {@code null} when it is.
     *
     * @param field the name of the field it came in, for the message
     */
    public static String groupProblem(String field, String group) {
        String problem = characterProblem(field, group);
        if (problem != null) {
            return problem;
        }
        return group.length() <= GROUP_MAX_LENGTH ? null : field + " " + shown(group) + " is " + group.length()
                + " characters long; at most " + GROUP_MAX_LENGTH + " are allowed";
    }

    /** The rule {@link #brokerNameProblem} applies, as a config's message states it. */
    public static final String BROKER_NAME_RULE = "must be letters, digits, '%', '|', '.', '_' or '-', at most "
            + GROUP_MAX_LENGTH + " characters";

    /**
     * Why {@code name} is not a valid broker or cluster name, or {@code null}: a group's characters plus {@code '.'},
     * since Apache's brokers are named after their host by default, at most {@value #GROUP_MAX_LENGTH}. The one rule
     * for these names, whether they come in a config or a request.
     */
    public static String brokerNameProblem(String field, String name) {
        if (name == null || name.isEmpty()) {
            return field + " is blank";
        }
        if (!isValidBrokerName(name)) {
            return name.length() <= GROUP_MAX_LENGTH
                    ? field + " " + shown(name) + " contains characters outside ^[%|a-zA-Z0-9._-]+$"
                    : field + " " + shown(name) + " is " + name.length() + " characters long; at most "
                    + GROUP_MAX_LENGTH + " are allowed";
        }
        return null;
    }

    /** Whether {@code name} is a valid broker or cluster name ({@link #BROKER_NAME_RULE}). */
    public static boolean isValidBrokerName(String name) {
        if (name == null || name.isEmpty() || name.length() > GROUP_MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c != '.' && (c >= LEGAL.length || !LEGAL[c])) {
                return false;
            }
        }
        return true;
    }

    /**
     * Why {@code address} is not a {@code host:port} address as RocketMQ writes them (an IPv6 host without brackets,
     * the last colon before the port), or {@code null}.
     */
    public static String addressProblem(String field, String address) {
        if (address == null || address.isEmpty()) {
            return field + " is blank";
        }
        int colon = address.lastIndexOf(':');
        if (address.length() > 261 || colon <= 0 || colon == address.length() - 1
                || address.length() - colon - 1 > 5) {
            return field + " " + shown(address) + " is not host:port";
        }
        for (int i = 0; i < colon; i++) {
            char c = address.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-'
                    || c == ':' || c == '_' || c == '[' || c == ']' || c == '%')) {
                return field + " " + shown(address) + " has a host with characters no host name or IP has";
            }
        }
        int port = 0;
        for (int i = colon + 1; i < address.length(); i++) {
            char c = address.charAt(i);
            if (c < '0' || c > '9') {
                return field + " " + shown(address) + " has a port that is not a number";
            }
            port = port * 10 + (c - '0');
        }
        return port <= 65535 ? null : field + " " + shown(address) + " has a port beyond 65535";
    }

    public static boolean isValidTopic(String topic) {
        return topicProblem(topic) == null;
    }

    public static boolean isValidGroup(String group) {
        return groupProblem(group) == null;
    }

    /** Whether every character of {@code name} is one RocketMQ allows (an empty name passes). */
    public static boolean hasOnlyAllowedCharacters(CharSequence name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c >= LEGAL.length || !LEGAL[c]) {
                return false;
            }
        }
        return true;
    }

    private static String characterProblem(String field, String name) {
        if (name == null || name.isEmpty()) {
            return field + " is blank";
        }
        if (!hasOnlyAllowedCharacters(name)) {
            return field + " " + shown(name) + " contains characters outside " + ALLOWED;
        }
        return null;
    }

    /** The name quoted for a message: whole when short, else its start and its length. */
    public static String shown(String name) {
        if (name == null) {
            return "null";
        }
        if (name.length() <= SHOWN_CHARACTERS) {
            return "'" + printable(name) + "'";
        }
        return "'" + printable(name.substring(0, SHOWN_CHARACTERS)) + "...' (" + name.length() + " characters)";
    }

    /** Control characters shown as escapes, so a name cannot forge log lines. */
    private static String printable(String text) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isISOControl(c)) {
                if (out == null) {
                    out = new StringBuilder(text.length() + 8).append(text, 0, i);
                }
                out.append(String.format("\\u%04x", (int) c));
            } else if (out != null) {
                out.append(c);
            }
        }
        return out == null ? text : out.toString();
    }
}
