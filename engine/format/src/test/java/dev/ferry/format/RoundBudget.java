package dev.ferry.format;

import java.util.Locale;

/**
 * How long the tests that repeat rounds (fuzzing, kills, churn) run: short unless the build passes
 * {@code ferry.tests.budget=long} to the test JVM (Maven: {@code -Plong}; docs/testing.md).
 */
public enum RoundBudget {
    SHORT,
    LONG;

    /** The budget this test JVM was given; an unknown one is an error, not a silent short run. */
    public static RoundBudget current() {
        String value = System.getProperty("ferry.tests.budget", "short").trim();
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "", "short" -> SHORT;
            case "long" -> LONG;
            default -> throw new IllegalArgumentException(
                    "ferry.tests.budget must be short or long, not '" + value + "'");
        };
    }

    /** {@code shortCount} under the short budget, {@code longCount} under the long one. */
    public static int rounds(int shortCount, int longCount) {
        return current() == LONG ? longCount : shortCount;
    }
}
