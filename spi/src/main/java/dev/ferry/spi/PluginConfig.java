package dev.ferry.spi;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The configuration a plugin is created with: an immutable map from string keys to string values, as
 * they come from a properties file, CLI flags or JCA config properties.
 *
 * <p>Plugins read it through the typed getters, which fail with a {@link PluginConfigException} naming
 * the key and the bad value, so a typo surfaces when the plugin is created rather than at the first
 * rebalance. Keys are lower-case words joined by dashes ({@code virtual-nodes}); a plugin that wraps
 * another passes it the entries under a prefix ({@link #section(String)}).
 *
 * @param values the entries; copied, never {@code null}
 */
public record PluginConfig(Map<String, String> values) {

    private static final PluginConfig EMPTY = new PluginConfig(Map.of());

    /** Copies the entries into an immutable, key-ordered map; keys and values must not be null. */
    public PluginConfig {
        values = Collections.unmodifiableMap(new TreeMap<>(Map.copyOf(values)));
    }

    /** @return a configuration without entries */
    public static PluginConfig empty() {
        return EMPTY;
    }

    /**
     * @param keysAndValues alternating keys and values
     * @return a configuration with those entries
     */
    public static PluginConfig of(String... keysAndValues) {
        if (keysAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("Keys and values must come in pairs: " + Arrays.toString(keysAndValues));
        }
        Map<String, String> map = new TreeMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return new PluginConfig(map);
    }

    /**
     * @param key the key
     * @return the value, trimmed, if present and not blank
     */
    public Optional<String> string(String key) {
        String value = values.get(Objects.requireNonNull(key, "key"));
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
    }

    /**
     * @param key the key
     * @param defaultValue used when the key is absent or blank
     * @return the trimmed value or the default
     */
    public String string(String key, String defaultValue) {
        return string(key).orElse(defaultValue);
    }

    /**
     * @param key the key
     * @return the trimmed value
     * @throws PluginConfigException if the key is absent or blank
     */
    public String requiredString(String key) {
        return string(key).orElseThrow(() -> new PluginConfigException(key, "Missing plugin config '" + key + "'"));
    }

    /**
     * @param key the key
     * @param defaultValue used when the key is absent or blank
     * @return the value as a positive int
     * @throws PluginConfigException if the value is not a positive integer
     */
    public int positiveInt(String key, int defaultValue) {
        Optional<String> text = string(key);
        if (text.isEmpty()) {
            return defaultValue;
        }
        try {
            int value = Integer.parseInt(text.get());
            if (value > 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below, with the key and the value
        }
        throw invalid(key, "a positive integer");
    }

    /**
     * @param key the key
     * @return the comma-separated items of the value, trimmed, blanks dropped; empty if absent
     */
    public List<String> list(String key) {
        return string(key).stream()
                .flatMap(value -> Arrays.stream(value.split(",")))
                .map(String::trim)
                .filter(item -> !item.isEmpty())
                .toList();
    }

    /**
     * The entries whose keys start with {@code prefix + "."}, with that prefix removed: how a plugin
     * that wraps another hands it its own configuration.
     *
     * @param prefix the section name, without the dot
     * @return the section, possibly empty
     */
    public PluginConfig section(String prefix) {
        String start = prefix + ".";
        return new PluginConfig(values.entrySet().stream()
                .filter(entry -> entry.getKey().startsWith(start))
                .collect(Collectors.toMap(entry -> entry.getKey().substring(start.length()), Map.Entry::getValue)));
    }

    /**
     * An exception for a value that cannot be read as needed.
     *
     * @param key the key
     * @param expected what the value should have been, for example "a positive integer"
     * @return the exception, naming key and value
     */
    public PluginConfigException invalid(String key, String expected) {
        return new PluginConfigException(key,
                "Invalid plugin config '" + key + "' = '" + values.get(key) + "': expected " + expected);
    }
}
