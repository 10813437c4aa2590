package dev.ferry.format;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Message properties as they travel in send headers and in stored entries: {@code name \u0001 value \u0002} for every
 * pair, the separator following the last pair too. Also the names of the properties RocketMQ itself sets.
 *
 * <p>One rule for reading, Apache's: a pair needs a non-empty name and a non-empty value, anything else is skipped,
 * and when a name comes twice the later value wins. {@link #parse}, {@link #find} and {@link #has} agree on it. No
 * other code scans the encoded form.
 */
public final class MessageProperties {
    public static final char NAME_VALUE_SEPARATOR = '\u0001';
    public static final char PROPERTY_SEPARATOR = '\u0002';

    public static final String TAGS = "TAGS";
    public static final String KEYS = "KEYS";
    /** Space separates several keys in the {@link #KEYS} property. */
    public static final String KEY_SEPARATOR = " ";
    /** The producer's unique message id. */
    public static final String UNIQ_KEY = "UNIQ_KEY";
    /** Whether the producer waits for the store (always "true" from Ferry and Apache). */
    public static final String WAIT = "WAIT";
    /** The delay level of a delayed message. */
    public static final String DELAY = "DELAY";
    /** Where a retried or delayed or transactional message really belongs, while it waits elsewhere. */
    public static final String REAL_TOPIC = "REAL_TOPIC";
    public static final String REAL_QUEUE_ID = "REAL_QID";
    /** The original topic of a message consumed again from a retry topic. */
    public static final String RETRY_TOPIC = "RETRY_TOPIC";
    /** The id of the message a retry or dead letter copies. */
    public static final String ORIGIN_MESSAGE_ID = "ORIGIN_MESSAGE_ID";
    /** "true" on a transactional half message. */
    public static final String TRANSACTION_PREPARED = "TRAN_MSG";
    /** The producer group of a transactional message, asked for its state. */
    public static final String PRODUCER_GROUP = "PGROUP";
    public static final String MIN_OFFSET = "MIN_OFFSET";
    public static final String MAX_OFFSET = "MAX_OFFSET";
    public static final String RECONSUME_TIME = "RECONSUME_TIME";
    public static final String MAX_RECONSUME_TIMES = "MAX_RECONSUME_TIMES";
    public static final String CONSUME_START_TIME = "CONSUME_START_TIME";
    public static final String MESSAGE_REGION = "MSG_REGION";
    public static final String TRACE_SWITCH = "TRACE_ON";
    public static final String CLUSTER = "CLUSTER";
    /** A request's id, copied into its reply so that the requester can match them. */
    public static final String CORRELATION_ID = "CORRELATION_ID";
    /** The client id of a request's sender: the broker pushes the reply to that client's connection. */
    public static final String REPLY_TO_CLIENT = "REPLY_TO_CLIENT";
    /** How long, in milliseconds, a requester waits for the reply. */
    public static final String TTL = "TTL";
    /** The kind of a message; {@link #REPLY_MESSAGE_TYPE} marks a reply. */
    public static final String MESSAGE_TYPE = "MSG_TYPE";
    public static final String REPLY_MESSAGE_TYPE = "reply";
    /** When the broker pushed a reply, in epoch milliseconds. */
    public static final String PUSH_REPLY_TIME = "PUSH_REPLY_TIME";
    /** When a reply reached its requester, in epoch milliseconds. */
    public static final String REPLY_ARRIVE_TIME = "ARRIVE_TIME";
    public static final String TRANSACTION_CHECK_TIMES = "TRANSACTION_CHECK_TIMES";
    public static final String CHECK_IMMUNITY_TIME = "CHECK_IMMUNITY_TIME_IN_SECONDS";
    public static final String SHARDING_KEY = "__SHARDINGKEY";
    public static final String TIMER_DELIVER_MS = "TIMER_DELIVER_MS";
    public static final String TIMER_DELAY_SEC = "TIMER_DELAY_SEC";
    public static final String TIMER_DELAY_MS = "TIMER_DELAY_MS";
    /** The time a timer message fires, rounded to the broker's timer precision (set by the broker). */
    public static final String TIMER_OUT_MS = "TIMER_OUT_MS";
    /** When the broker put a timer message in its timer store. */
    public static final String TIMER_ENQUEUE_MS = "TIMER_ENQUEUE_MS";
    /** When the broker took a timer message out of its timer store to deliver it. */
    public static final String TIMER_DEQUEUE_MS = "TIMER_DEQUEUE_MS";
    /** The start of every timer property's name. */
    public static final String TIMER_PREFIX = "TIMER_";
    /** Cancels the pending timer message {@code topic+uniqKey} due at the same time. */
    public static final String TIMER_DEL_UNIQKEY = "TIMER_DEL_UNIQKEY";

    /** The names the client or the broker set themselves: an application's own property may not use them. */
    public static final Set<String> RESERVED = Set.of(TAGS, KEYS, UNIQ_KEY, WAIT, DELAY, RETRY_TOPIC, REAL_TOPIC,
            REAL_QUEUE_ID, TRANSACTION_PREPARED, PRODUCER_GROUP, MIN_OFFSET, MAX_OFFSET, ORIGIN_MESSAGE_ID,
            RECONSUME_TIME, MAX_RECONSUME_TIMES, CONSUME_START_TIME, MESSAGE_REGION, TRACE_SWITCH, CLUSTER,
            TRANSACTION_CHECK_TIMES, CHECK_IMMUNITY_TIME, SHARDING_KEY, TIMER_DELIVER_MS, TIMER_DELAY_SEC,
            TIMER_DELAY_MS);

    private MessageProperties() {
    }

    /** Formats pairs in iteration order, each followed by the pair separator; null values are skipped. */
    public static String format(Map<String, String> properties) {
        StringBuilder out = new StringBuilder(properties.size() * 24);
        for (Map.Entry<String, String> pair : properties.entrySet()) {
            if (pair.getValue() != null) {
                out.append(pair.getKey()).append(NAME_VALUE_SEPARATOR).append(pair.getValue())
                        .append(PROPERTY_SEPARATOR);
            }
        }
        return out.toString();
    }

    /** Parses the format, in the order of first appearance; a later value of the same name replaces the earlier. */
    public static Map<String, String> parse(String properties) {
        Map<String, String> map = new LinkedHashMap<>();
        if (properties == null) {
            return map;
        }
        int start = 0;
        int length = properties.length();
        while (start < length) {
            int end = pairEnd(properties, start);
            int split = properties.indexOf(NAME_VALUE_SEPARATOR, start);
            if (isPair(start, split, end)) {
                map.put(properties.substring(start, split), properties.substring(split + 1, end));
            }
            start = end + 1;
        }
        return map;
    }

    /** The value {@link #parse} would give {@code name}, or null; no map is built. */
    public static String find(String properties, String name) {
        int value = lastValueStart(properties, name);
        return value < 0 ? null : properties.substring(value, pairEnd(properties, value));
    }

    /** Whether {@link #parse} would give {@code name} a value; nothing is copied. */
    public static boolean has(String properties, String name) {
        return properties != null && lastValueStart(properties, name) >= 0;
    }

    /** Where the value {@link #parse} would give {@code name} starts, or -1. */
    private static int lastValueStart(String properties, String name) {
        int found = -1;
        int start = 0;
        int length = properties.length();
        while (start < length) {
            int end = pairEnd(properties, start);
            int split = start + name.length();
            if (isPair(start, split, end) && properties.charAt(split) == NAME_VALUE_SEPARATOR
                    && properties.startsWith(name, start)) {
                found = split + 1;
            }
            start = end + 1;
        }
        return found;
    }

    /** Whether the properties may name a timer: a test before anything is parsed, false when none can be there. */
    public static boolean mayNameTimer(String properties) {
        return properties != null && properties.contains(TIMER_PREFIX);
    }

    /** The consume-queue tag code: {@code TAGS.hashCode()}, 0 when the message has no tags. */
    public static long tagsCode(String properties) {
        String tags = find(properties, TAGS);
        return tags == null ? 0 : tags.hashCode();
    }

    /**
     * {@code properties} with {@code name} set to {@code value}: unchanged when it already is, else the pair appended,
     * which {@link #parse} and {@link #find} (like Apache's decoder) take over an earlier value of the name.
     */
    public static String with(String properties, String name, String value) {
        if (value.equals(find(properties, name))) {
            return properties;
        }
        return normalize(properties) + name + NAME_VALUE_SEPARATOR + value + PROPERTY_SEPARATOR;
    }

    /** Appends the trailing pair separator Apache writes, so that every stored non-empty properties ends with it. */
    public static String normalize(String properties) {
        if (properties.isEmpty() || properties.charAt(properties.length() - 1) == PROPERTY_SEPARATOR) {
            return properties;
        }
        return properties + PROPERTY_SEPARATOR;
    }

    private static int pairEnd(String properties, int start) {
        int end = properties.indexOf(PROPERTY_SEPARATOR, start);
        return end < 0 ? properties.length() : end;
    }

    /** A name before the separator and a value after it, both non-empty. */
    private static boolean isPair(int start, int split, int end) {
        return split > start && split < end - 1;
    }
}
