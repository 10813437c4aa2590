package dev.ferry.format;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The delays of RocketMQ's delay levels: level {@code n} (1-based) waits {@code delay(n)}. Level 0
 * means "no delay"; a level above the highest is clamped to it, as RocketMQ does.
 *
 * @param delays the delay of level 1, 2, ... in order
 */
public record DelayLevels(List<Duration> delays) {
    /** RocketMQ's levels, in its {@code messageDelayLevel} format (a constant, for annotations' defaults). */
    public static final String DEFAULT_TEXT = "1s 5s 10s 30s 1m 2m 3m 4m 5m 6m 7m 8m 9m 10m 20m 30m 1h 2h";
    /** RocketMQ's levels: {@value #DEFAULT_TEXT}. */
    public static final DelayLevels DEFAULT = parse(DEFAULT_TEXT);

    public DelayLevels {
        delays = List.copyOf(delays);
        if (delays.isEmpty()) {
            throw new IllegalArgumentException("delayLevels: at least one level is needed");
        }
    }

    /**
     * Parses RocketMQ's {@code messageDelayLevel} format: space-separated numbers with a unit
     * {@code ms}, {@code s}, {@code m}, {@code h} or {@code d}.
     */
    public static DelayLevels parse(String text) {
        List<Duration> delays = new ArrayList<>();
        for (String level : text.trim().split("\\s+")) {
            delays.add(parseDuration(level, "delayLevels"));
        }
        return new DelayLevels(delays);
    }

    /** Parses one duration in that format ({@code 500ms}, {@code 30s}, {@code 2h}); errors name {@code key}. */
    public static Duration parseDuration(String text, String key) {
        String level = text.trim().toLowerCase(Locale.ROOT);
        int split = 0;
        while (split < level.length() && Character.isDigit(level.charAt(split))) {
            split++;
        }
        if (split == 0 || split == level.length()) {
            throw new IllegalArgumentException(key + " = " + text + ": '" + level
                    + "' is not a number with a unit (ms, s, m, h, d)");
        }
        long amount = Long.parseLong(level.substring(0, split));
        return switch (level.substring(split)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            case "d" -> Duration.ofDays(amount);
            default -> throw new IllegalArgumentException(key + " = " + text + ": unknown unit in '" + level
                    + "' (ms, s, m, h, d)");
        };
    }

    /**
     * The level a {@code DELAY} property's value asks for: 0 for none (absent, blank, not a number, not positive),
     * else the level clamped to the highest.
     */
    public int requested(String value) {
        if (value == null || value.isBlank()) {
            return 0;
        }
        try {
            int level = Integer.parseInt(value.trim());
            return level <= 0 ? 0 : clamp(level);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** The highest level. */
    public int maxLevel() {
        return delays.size();
    }

    /** {@code level} brought into 1..{@link #maxLevel()}. */
    public int clamp(int level) {
        return Math.max(1, Math.min(level, maxLevel()));
    }

    /** The delay of a level within 1..{@link #maxLevel()}. */
    public Duration delay(int level) {
        return delays.get(clamp(level) - 1);
    }

    /**
     * The lowest level that waits at least {@code wanted}, or the highest level when none does: how a wanted
     * redelivery delay is put onto the levels.
     */
    public int levelFor(Duration wanted) {
        for (int level = 1; level <= delays.size(); level++) {
            if (delays.get(level - 1).compareTo(wanted) >= 0) {
                return level;
            }
        }
        return maxLevel();
    }
}
