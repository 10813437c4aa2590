package dev.ferry.store;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The stored properties format: {@code name \u0001 value \u0002} for every pair (the separator also follows the last
 * pair, as Apache writes it), and the property names the store reads.
 */
public final class MessageProperties {
    public static final char NAME_VALUE_SEPARATOR = '\u0001';
    public static final char PROPERTY_SEPARATOR = '\u0002';
    public static final String TAGS = "TAGS";
    public static final String KEYS = "KEYS";
    public static final String UNIQ_KEY = "UNIQ_KEY";
    /** Space separates several keys in the {@link #KEYS} property. */
    public static final String KEY_SEPARATOR = " ";

    private MessageProperties() {
    }

    /** Formats pairs in iteration order; null values are skipped. */
    public static String format(Map<String, String> properties) {
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, String> pair : properties.entrySet()) {
            if (pair.getValue() == null) {
                continue;
            }
            out.append(pair.getKey()).append(NAME_VALUE_SEPARATOR).append(pair.getValue()).append(PROPERTY_SEPARATOR);
        }
        return out.toString();
    }

    /** Parses the stored format; a pair without a name/value separator is ignored. */
    public static Map<String, String> parse(String properties) {
        Map<String, String> map = new LinkedHashMap<>();
        int start = 0;
        while (start < properties.length()) {
            int end = properties.indexOf(PROPERTY_SEPARATOR, start);
            if (end < 0) {
                end = properties.length();
            }
            int split = properties.indexOf(NAME_VALUE_SEPARATOR, start);
            if (split >= 0 && split < end) {
                map.put(properties.substring(start, split), properties.substring(split + 1, end));
            }
            start = end + 1;
        }
        return map;
    }

    /** The value of one property, or null; no map is built. */
    public static String find(String properties, String name) {
        int start = 0;
        while (start < properties.length()) {
            int end = properties.indexOf(PROPERTY_SEPARATOR, start);
            if (end < 0) {
                end = properties.length();
            }
            int split = start + name.length();
            if (split < end && properties.charAt(split) == NAME_VALUE_SEPARATOR && properties.startsWith(name, start)) {
                return properties.substring(split + 1, end);
            }
            start = end + 1;
        }
        return null;
    }

    /** The consume-queue tag code: {@code TAGS.hashCode()}, 0 when the message has no tags. */
    public static long tagsCode(String properties) {
        String tags = find(properties, TAGS);
        return tags == null || tags.isEmpty() ? 0 : tags.hashCode();
    }

    /** Appends the trailing pair separator Apache writes, so that every stored non-empty properties ends with it. */
    static String normalize(String properties) {
        if (properties.isEmpty() || properties.charAt(properties.length() - 1) == PROPERTY_SEPARATOR) {
            return properties;
        }
        return properties + PROPERTY_SEPARATOR;
    }
}
