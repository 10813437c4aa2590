package dev.ferry.client;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The property encoding of the remoting protocol, in send headers and stored messages alike:
 * {@code name \u0001 value \u0002} per property.
 */
final class MessageProperties {
    static final char NAME_VALUE_SEPARATOR = '\u0001';
    static final char PROPERTY_SEPARATOR = '\u0002';

    static final String TAGS = "TAGS";
    static final String KEYS = "KEYS";
    static final String UNIQ_KEY = "UNIQ_KEY";
    static final String WAIT = "WAIT";
    static final String DELAY = "DELAY";
    static final String RETRY_TOPIC = "RETRY_TOPIC";
    static final String TRAN_MSG = "TRAN_MSG";
    static final String PRODUCER_GROUP = "PGROUP";

    private MessageProperties() {
    }

    static String encode(Map<String, String> properties) {
        StringBuilder out = new StringBuilder(properties.size() * 24);
        properties.forEach((name, value) -> out.append(name).append(NAME_VALUE_SEPARATOR).append(value)
                .append(PROPERTY_SEPARATOR));
        return out.toString();
    }

    static Map<String, String> decode(String text) {
        Map<String, String> properties = new LinkedHashMap<>();
        if (text == null || text.isEmpty()) {
            return properties;
        }
        int start = 0;
        while (start < text.length()) {
            int end = text.indexOf(PROPERTY_SEPARATOR, start);
            if (end < 0) {
                end = text.length();
            }
            int separator = text.indexOf(NAME_VALUE_SEPARATOR, start);
            if (separator > start && separator < end) {
                // First one wins: Apache's broker appends a batch's own UNIQ_KEY after each inner message's.
                properties.putIfAbsent(text.substring(start, separator), text.substring(separator + 1, end));
            }
            start = end + 1;
        }
        return properties;
    }
}
