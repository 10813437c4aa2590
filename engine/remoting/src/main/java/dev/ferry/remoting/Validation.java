package dev.ferry.remoting;

import java.time.Duration;

/** Config checks whose messages name the bad key and value. */
final class Validation {
    private Validation() {
    }

    static void require(boolean ok, String key, Object value, String rule) {
        if (!ok) {
            throw new IllegalArgumentException(key + " = " + value + ": " + rule);
        }
    }

    static void positive(String key, Duration value) {
        require(value != null && !value.isNegative() && !value.isZero(), key, value, "must be a positive duration");
    }

    static void notNegative(String key, Duration value) {
        require(value != null && !value.isNegative(), key, value, "must not be negative");
    }
}
