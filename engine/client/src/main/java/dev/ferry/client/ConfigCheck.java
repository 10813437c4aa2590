package dev.ferry.client;

import dev.ferry.format.NameRules;
import java.time.Duration;

/** Validation of configuration values, with messages that name the bad key and value. */
final class ConfigCheck {
    private ConfigCheck() {
    }

    static void require(boolean ok, String key, Object value, String rule) {
        if (!ok) {
            throw new IllegalArgumentException("invalid client config '" + key + "' = '" + value + "': " + rule);
        }
    }

    static void positive(String key, Duration value) {
        require(value != null && !value.isNegative() && !value.isZero(), key, value, "must be a positive duration");
    }

    static void positive(String key, long value) {
        require(value > 0, key, value, "must be positive");
    }

    static void notBlank(String key, String value) {
        require(value != null && !value.isBlank(), key, value, "must not be blank");
    }

    static void group(String key, String value) {
        String problem = NameRules.groupProblem(key, value);
        if (problem != null) {
            throw new IllegalArgumentException("invalid client config: " + problem);
        }
    }
}
