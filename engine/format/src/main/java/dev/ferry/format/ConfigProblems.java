package dev.ferry.format;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The one way configs check their values: typed checks that name the bad key, its value and the rule it breaks.
 * Either every problem is collected and reported at once ({@link #collecting}: a resource adapter's properties, an
 * embedded engine's settings), or the first one throws {@link IllegalArgumentException} ({@link #failingFast}: a
 * config record's constructor). Each config keeps its own wording of a problem, since its users read and test it.
 *
 * <p>A collecting instance is not thread-safe (one per validation); a failing-fast one holds no state.
 */
public final class ConfigProblems {
    /** How a config words one problem. */
    @FunctionalInterface
    public interface Wording {
        String problem(String key, Object value, String rule);
    }

    /** One bad value: its key, the value (as the config may show it) and the rule. */
    public record Problem(String key, Object value, String rule, String text) {
        @Override
        public String toString() {
            return text;
        }
    }

    /** {@code key = value: rule}, the engine's wording. */
    public static final Wording KEY_EQUALS_VALUE = (key, value, rule) -> key + " = " + value + ": " + rule;
    /** The engine's checks: the first problem, in {@link #KEY_EQUALS_VALUE} wording, throws. */
    public static final ConfigProblems FAIL_FAST = failingFast(KEY_EQUALS_VALUE);

    private final Wording wording;
    private final boolean failFast;
    private final List<Problem> problems = new ArrayList<>();

    private ConfigProblems(Wording wording, boolean failFast) {
        this.wording = wording;
        this.failFast = failFast;
    }

    /** Collects every problem, the first of each key only unless {@link #addAlso} adds more. */
    public static ConfigProblems collecting(Wording wording) {
        return new ConfigProblems(wording, false);
    }

    /** Throws {@link IllegalArgumentException} with the first problem. */
    public static ConfigProblems failingFast(Wording wording) {
        return new ConfigProblems(wording, true);
    }

    /** Records that {@code key} = {@code value} breaks {@code rule}; a key's first problem wins. */
    public ConfigProblems add(String key, Object value, String rule) {
        Problem problem = new Problem(key, value, rule, wording.problem(key, value, rule));
        if (failFast) {
            throw new IllegalArgumentException(problem.text());
        }
        if (problems.stream().noneMatch(p -> p.key().equals(key))) {
            problems.add(problem);
        }
        return this;
    }

    /** Records another problem of {@code key}, after any it has already. */
    public ConfigProblems addAlso(String key, Object value, String rule) {
        for (int i = 0; i < problems.size(); i++) {
            Problem first = problems.get(i);
            if (first.key().equals(key)) {
                problems.set(i, new Problem(key, first.value(), first.rule() + "; " + rule, first.text() + "; "
                        + rule));
                return this;
            }
        }
        return add(key, value, rule);
    }

    /** Checks {@code ok}, recording the problem when it is false. */
    public ConfigProblems require(boolean ok, String key, Object value, String rule) {
        return ok ? this : add(key, value, rule);
    }

    public ConfigProblems positive(String key, long value) {
        return require(value > 0, key, value, "must be positive");
    }

    public ConfigProblems notNegative(String key, long value) {
        return require(value >= 0, key, value, "must not be negative");
    }

    /** Whether {@code min <= value <= max}: "must be within min..max". */
    public ConfigProblems within(String key, long value, long min, long max) {
        return require(value >= min && value <= max, key, value, "must be within " + min + ".." + max);
    }

    public ConfigProblems atLeast(String key, long value, long min) {
        return require(value >= min, key, value, "must be >= " + min);
    }

    /** A share of a whole: more than 0, at most 1. */
    public ConfigProblems fraction(String key, double value) {
        return require(value > 0 && value <= 1, key, value, "must be in (0, 1]");
    }

    /** A duration above zero; null breaks it. */
    public ConfigProblems positive(String key, Duration value) {
        return require(value != null && !value.isNegative() && !value.isZero(), key, value,
                "must be a positive duration");
    }

    /** A duration of zero or more; null breaks it. */
    public ConfigProblems notNegative(String key, Duration value) {
        return require(value != null && !value.isNegative(), key, value, "must not be negative");
    }

    public ConfigProblems notBlank(String key, String value) {
        return require(value != null && !value.isBlank(), key, value, "must not be blank");
    }

    /** {@code value} parsed by {@code parser}, or empty (and a problem) when it throws. */
    public <T> Optional<T> parse(String key, String value, Function<String, T> parser, String rule) {
        try {
            return Optional.of(parser.apply(value));
        } catch (RuntimeException e) {
            add(key, value, rule);
            return Optional.empty();
        }
    }

    public boolean isEmpty() {
        return problems.isEmpty();
    }

    /** The problems in the order found. */
    public List<Problem> problems() {
        return List.copyOf(problems);
    }

    /** The bad keys, in the order found. */
    public List<String> keys() {
        return problems.stream().map(Problem::key).toList();
    }

    /** Every problem's text, joined by {@code "; "}. */
    public String joined() {
        return problems.stream().map(Problem::text).collect(Collectors.joining("; "));
    }

    /** @throws IllegalArgumentException with {@link #joined} when there is any problem */
    public void throwIfAny() {
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(joined());
        }
    }

    /** "must be one of A, B, C": the rule for an enum's names. */
    public static String oneOf(Class<? extends Enum<?>> type) {
        return "must be one of " + java.util.Arrays.stream(type.getEnumConstants()).map(Enum::name)
                .collect(Collectors.joining(", "));
    }
}
