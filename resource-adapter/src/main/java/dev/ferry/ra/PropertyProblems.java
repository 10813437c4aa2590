package dev.ferry.ra;

import dev.ferry.format.ConfigProblems;
import dev.ferry.format.NameRules;
import dev.ferry.format.SystemTopics;
import dev.ferry.remoting.Credentials;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Collects every bad configuration property of one bean, so that validation reports them all at once, each by
 * name, value and rule: the engine's {@link ConfigProblems} in the adapter's wording ({@code property = 'value':
 * rule}), plus the rules only the adapter's beans share. Not thread-safe; one per validation.
 */
public final class PropertyProblems {
    private final ConfigProblems problems = ConfigProblems.collecting((property, value, rule) -> property + " = '"
            + value + "': " + rule);

    /** Records that {@code property} = {@code value} breaks {@code rule} (the first problem of a property wins). */
    public void add(String property, Object value, String rule) {
        problems.add(property, value, rule);
    }

    /** Records another problem of {@code property}, after any it has already. */
    public void addAlso(String property, Object value, String rule) {
        problems.addAlso(property, value, rule);
    }

    /** Checks {@code ok}, recording the problem when it is false. */
    public void require(boolean ok, String property, Object value, String rule) {
        problems.require(ok, property, value, rule);
    }

    /** {@code value} parsed by {@code parser}, or empty (and a recorded problem) when it throws. */
    public <T> Optional<T> parse(String property, String value, Function<String, T> parser, String rule) {
        return problems.parse(property, value, parser, rule);
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
        return new ArrayList<>(problems.keys());
    }

    /** One message naming every bad property. */
    public String describe(String what) {
        int count = problems.keys().size();
        return "invalid " + what + " (" + count + " bad propert" + (count == 1 ? "y" : "ies") + "): "
                + problems.joined();
    }

    /** Names of enum constants, for rules. */
    public static String oneOf(Class<? extends Enum<?>> type) {
        return ConfigProblems.oneOf(type);
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
