package dev.ferry.client;

import static dev.ferry.client.ConfigCheck.CLIENT;

import dev.ferry.format.DelayLevels;
import java.time.Duration;
import java.util.Objects;

/**
 * How long a message waits after a failed delivery before the next: {@code initialDelay} after the first failure,
 * then {@code multiplier} times the previous wait, never more than {@code maxDelay}. A consumer that retries in
 * place (orderly, or pausing poisoned queues) waits exactly that; one that hands the message back to the broker
 * asks for the broker's lowest delay level that waits at least that long.
 *
 * @param initialDelay the wait after the first failure
 * @param multiplier how much each further wait grows (1 keeps it constant)
 * @param maxDelay the longest wait
 */
public record RedeliveryPolicy(Duration initialDelay, double multiplier, Duration maxDelay) {

    public RedeliveryPolicy {
        Objects.requireNonNull(initialDelay, "initialDelay");
        Objects.requireNonNull(maxDelay, "maxDelay");
        CLIENT.require(!initialDelay.isNegative() && !initialDelay.isZero(), "redeliveryDelay", initialDelay,
                "must be positive");
        CLIENT.require(multiplier >= 1 && multiplier <= 100 && !Double.isNaN(multiplier), "redeliveryMultiplier",
                multiplier, "must be between 1 and 100");
        CLIENT.require(maxDelay.compareTo(initialDelay) >= 0, "maxRedeliveryDelay", maxDelay,
                "must not be shorter than redeliveryDelay (" + initialDelay + ")");
    }

    /** The wait after the {@code failures}-th failed delivery (1 for the first). */
    public Duration delay(int failures) {
        double millis = initialDelay.toMillis() * Math.pow(multiplier, Math.max(0, failures - 1));
        // beyond maxDelay (or overflowing a long) the answer is maxDelay
        return millis >= maxDelay.toMillis() ? maxDelay : Duration.ofMillis((long) millis);
    }

    /** The delay level of {@code levels} that waits at least {@link #delay(int)} after {@code failures} failures. */
    public int delayLevel(int failures, DelayLevels levels) {
        return levels.levelFor(delay(failures));
    }
}
