package dev.ferry.ra;

import dev.ferry.format.NameRules;
import dev.ferry.format.SystemTopics;
import dev.ferry.remoting.Credentials;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Collects every bad configuration property of one bean, so that validation reports them all at once, each by
 * name, value and rule. Not thread-safe; one per validation.
 */
public final class PropertyProblems {
    private final Map<String, String> problems = new LinkedHashMap<>();

    /** Records that {@code property} = {@code value} breaks {@code rule} (the first problem of a property wins). */
    public void add(String property, Object value, String rule) {
        problems.putIfAbsent(property, property + " = '" + value + "': " + rule);
    }

    /** Records another problem of {@code property}, after any it has already. */
    public void addAlso(String property, Object value, String rule) {
        problems.merge(property, property + " = '" + value + "': " + rule, (first, next) -> first + "; " + rule);
    }

    /** Checks {@code ok}, recording the problem when it is false. */
    public void require(boolean ok, String property, Object value, String rule) {
        if (!ok) {
            add(property, value, rule);
        }
    }

    /** {@code value} parsed by {@code parser}, or empty (and a recorded problem) when it throws. */
    public <T> Optional<T> parse(String property, String value, Function<String, T> parser, String rule) {
        try {
            return Optional.of(parser.apply(value));
        } catch (RuntimeException e) {
            add(property, value, rule);
            return Optional.empty();
        }
    }

    /**
     * A user and its secret given together (empty when neither is): {@code nameProperty}/{@code secretProperty} such
     * as {@code accessKey}/{@code secretKey}. A half pair is a problem that never shows the secret.
     */
    public Optional<Credentials> credentials(String nameProperty, String name, String secretProperty, String secret) {
        boolean hasName = name != null && !name.isBlank();
        boolean hasSecret = secret != null && !secret.isEmpty();
        if (hasName != hasSecret) {
            add(hasName ? secretProperty : nameProperty, hasName ? "(hidden)" : null,
                    nameProperty + " and " + secretProperty + " are given together");
            return Optional.empty();
        }
        return hasName ? Optional.of(new Credentials(name.trim(), secret)) : Optional.empty();
    }

    /**
     * The trace topic of RocketMQ's {@code enableMsgTrace} and {@code customizedTraceTopic} properties: empty when
     * tracing is off, RMQ_SYS_TRACE_TOPIC when no topic is named; a bad topic name is a problem.
     */
    public Optional<String> traceTopic(Boolean enableMsgTrace, String customizedTraceTopic) {
        if (enableMsgTrace == null || !enableMsgTrace) {
            return Optional.empty();
        }
        if (customizedTraceTopic == null || customizedTraceTopic.isBlank()) {
            return Optional.of(SystemTopics.TRACE_TOPIC);
        }
        String topic = customizedTraceTopic.trim();
        String problem = NameRules.topicProblem("customizedTraceTopic", topic);
        require(problem == null, "customizedTraceTopic", topic, "must follow the topic name rules: " + problem);
        return problem == null ? Optional.of(topic) : Optional.empty();
    }

    public boolean isEmpty() {
        return problems.isEmpty();
    }

    /** The names of the bad properties, in the order found. */
    public List<String> properties() {
        return new ArrayList<>(problems.keySet());
    }

    /** One message naming every bad property. */
    public String describe(String what) {
        return "invalid " + what + " (" + problems.size() + " bad propert" + (problems.size() == 1 ? "y" : "ies")
                + "): " + problems.values().stream().collect(Collectors.joining("; "));
    }

    /** Names of enum constants, for rules. */
    public static String oneOf(Class<? extends Enum<?>> type) {
        return "must be one of " + java.util.Arrays.stream(type.getEnumConstants()).map(Enum::name)
                .collect(Collectors.joining(", "));
    }

    /** Whether {@code value} is a list of {@code host:port} separated by ';'. */
    public static boolean isAddressList(String value) {
        if (value == null || value.isBlank()) {
            return false;
        }
        for (String address : value.split(";")) {
            String a = address.trim();
            int colon = a.lastIndexOf(':');
            if (colon <= 0) {
                return false;
            }
            try {
                int port = Integer.parseInt(a.substring(colon + 1));
                if (port <= 0 || port > 65535) {
                    return false;
                }
            } catch (NumberFormatException e) {
                return false;
            }
        }
        return true;
    }
}
