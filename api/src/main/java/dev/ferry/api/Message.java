package dev.ferry.api;

import dev.ferry.format.MessageProperties;
import dev.ferry.format.NameRules;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A message to send: topic, body, tags, keys, user properties and, optionally, when to deliver it: a delay level,
 * a delivery time or a delay.
 *
 * <p>Immutable and validated when built, so an invalid message never reaches a broker: the topic must
 * follow the broker's rules ({@link NameRules}: {@code ^[%|a-zA-Z0-9_-]+$}, at most
 * {@value #MAX_TOPIC_LENGTH} characters, or a group's retry topic), the body must be
 * non-empty and at most {@value #MAX_BODY_SIZE} bytes, tags, keys and properties must not contain the
 * property separators (characters 1 and 2), and user properties must not use the names RocketMQ reserves
 * ({@code TAGS}, {@code KEYS}, {@code UNIQ_KEY}, {@code DELAY}, ...). Build one with {@link #builder(String)}.
 *
 * <p>A message is delivered at once unless it has one of: a delay level (RocketMQ's table of 18 fixed delays), a
 * delivery time ({@link Builder#deliverAt}) or a delay ({@link Builder#deliverAfter}); the last two make it a
 * RocketMQ 5 timer message. The broker holds it until then (to its timer precision, 1 s by default), delivers one whose
 * time has passed at once, and refuses one further ahead than its {@code timerMaxDelaySec} (3 days by default); a
 * transactional message is timed from its commit. A message has at most one of the three.
 */
public final class Message {
    /** Longest topic name accepted (a group's retry or dead-letter topic may be longer). */
    public static final int MAX_TOPIC_LENGTH = NameRules.TOPIC_MAX_LENGTH;
    /** Largest body accepted, in bytes (4 MiB, RocketMQ's default). */
    public static final int MAX_BODY_SIZE = 4 * 1024 * 1024;
    /** Highest delay level of RocketMQ's default table ("1s 5s ... 2h"). */
    public static final int MAX_DELAY_LEVEL = 18;
    /** The latest delivery time that travels as epoch milliseconds; the broker's own limit is far nearer. */
    private static final Instant LATEST_TIME = Instant.ofEpochMilli(Long.MAX_VALUE - 1);
    /** The longest delay that travels as milliseconds; the broker's own limit is far shorter. */
    private static final Duration LONGEST_DELAY = Duration.ofMillis(Long.MAX_VALUE - 1);


    private final String topic;
    private final byte[] body;
    private final String tags;
    private final List<String> keys;
    private final Map<String, String> properties;
    private final int delayLevel;
    private final Instant deliveryTime;
    private final Duration deliveryDelay;

    private Message(Builder b) {
        this.topic = b.topic;
        this.body = b.body;
        this.tags = b.tags;
        this.keys = List.copyOf(b.keys);
        this.properties = Collections.unmodifiableMap(new LinkedHashMap<>(b.properties));
        this.delayLevel = b.delayLevel;
        this.deliveryTime = b.deliveryTime;
        this.deliveryDelay = b.deliveryDelay;
    }

    /**
     * A builder that starts as a copy of this message (its topic, body, tags, keys, properties, delay level, delivery
     * time or delay).
     */
    public Builder toBuilder() {
        Builder copy = new Builder(topic).body(body).tags(tags).keys(keys).delayLevel(delayLevel);
        copy.deliveryTime = deliveryTime;
        copy.deliveryDelay = deliveryDelay;
        properties.forEach(copy::property);
        return copy;
    }

    /** A builder for a message to {@code topic}. */
    public static Builder builder(String topic) {
        return new Builder(topic);
    }

    /**
     * Checks a topic name.
     *
     * @throws InvalidMessageException naming the topic and the rule it breaks
     */
    public static void validateTopic(String topic) {
        String problem = NameRules.topicProblem(topic);
        if (problem != null) {
            throw new InvalidMessageException(problem);
        }
    }

    public String topic() {
        return topic;
    }

    /** A copy of the body. */
    public byte[] body() {
        return body.clone();
    }

    /** The body's size in bytes. */
    public int bodySize() {
        return body.length;
    }

    /** The tag, if any. */
    public Optional<String> tags() {
        return Optional.ofNullable(tags);
    }

    /** The keys (indexed by the broker for lookups); possibly empty. */
    public List<String> keys() {
        return keys;
    }

    /** The user properties, in insertion order. */
    public Map<String, String> properties() {
        return properties;
    }

    /** One user property. */
    public Optional<String> property(String name) {
        return Optional.ofNullable(properties.get(name));
    }

    /** The delay level (0 = deliver at once, 1..{@value #MAX_DELAY_LEVEL} = RocketMQ's delay table). */
    public int delayLevel() {
        return delayLevel;
    }

    /** When the broker is to deliver it, if it was given a time ({@link Builder#deliverAt}). */
    public Optional<Instant> deliveryTime() {
        return Optional.ofNullable(deliveryTime);
    }

    /** How long after the broker stores it that it is delivered, if given a delay ({@link Builder#deliverAfter}). */
    public Optional<Duration> deliveryDelay() {
        return Optional.ofNullable(deliveryDelay);
    }

    /** Whether the broker holds it until a time of its own: it has a delay level, a delivery time or a delay. */
    public boolean isDelayed() {
        return delayLevel > 0 || deliveryTime != null || deliveryDelay != null;
    }

    @Override
    public String toString() {
        return "Message[topic=" + topic + ", tags=" + tags + ", keys=" + keys + ", body=" + body.length
                + " bytes, properties=" + properties + ", delayLevel=" + delayLevel
                + (deliveryTime == null ? "" : ", deliveryTime=" + deliveryTime)
                + (deliveryDelay == null ? "" : ", deliveryDelay=" + deliveryDelay) + "]";
    }

    /** Builds a {@link Message}. Not thread-safe. */
    public static final class Builder {
        private final String topic;
        private byte[] body;
        private String tags;
        private final List<String> keys = new ArrayList<>();
        private final Map<String, String> properties = new LinkedHashMap<>();
        private int delayLevel;
        private Instant deliveryTime;
        private Duration deliveryDelay;

        private Builder(String topic) {
            this.topic = topic;
        }

        /** The body; copied. */
        public Builder body(byte[] value) {
            this.body = value == null ? null : value.clone();
            return this;
        }

        /** One tag (what TAG subscriptions such as {@code TagA || TagB} match). */
        public Builder tags(String value) {
            this.tags = value;
            return this;
        }

        /** Adds keys. */
        public Builder keys(String... values) {
            keys.addAll(Arrays.asList(values));
            return this;
        }

        /** Adds keys. */
        public Builder keys(List<String> values) {
            keys.addAll(values);
            return this;
        }

        /** Sets a user property. */
        public Builder property(String name, String value) {
            properties.put(name, value);
            return this;
        }

        /** Sets the delay level, 0 for none. A message with a delay level has no delivery time or delay. */
        public Builder delayLevel(int value) {
            this.delayLevel = value;
            return this;
        }

        /**
         * Delivers the message at {@code time} (RocketMQ's {@code TIMER_DELIVER_MS}, to the millisecond, rounded
         * up), at once when that has passed by the time the broker stores it. Not with a delay level or a delay.
         */
        public Builder deliverAt(Instant time) {
            this.deliveryTime = Objects.requireNonNull(time, "time");
            return this;
        }

        /**
         * Delivers the message {@code delay} after the broker stores it (RocketMQ's {@code TIMER_DELAY_MS}, to the
         * millisecond, rounded up); zero delivers it at once. Not negative, not with a delay level or a delivery time.
         */
        public Builder deliverAfter(Duration delay) {
            this.deliveryDelay = Objects.requireNonNull(delay, "delay");
            return this;
        }

        /**
         * @throws InvalidMessageException when the message breaks a rule, naming it
         */
        public Message build() {
            validateTopic(topic);
            if (body == null || body.length == 0) {
                throw new InvalidMessageException("the body of a message to '" + topic + "' must not be empty");
            }
            if (body.length > MAX_BODY_SIZE) {
                throw new InvalidMessageException("the body of a message to '" + topic + "' is " + body.length
                        + " bytes, more than the " + MAX_BODY_SIZE + " allowed");
            }
            if (tags != null) {
                requireText("tags", tags);
            }
            for (String key : keys) {
                requireText("key", key);
                if (key.contains(" ")) {
                    throw new InvalidMessageException("key '" + key + "' must not contain spaces (keys travel space-separated)");
                }
            }
            properties.forEach((name, value) -> {
                requireText("property name", name);
                if (MessageProperties.RESERVED.contains(name)) {
                    throw new InvalidMessageException("property name '" + name + "' is reserved; use the"
                            + " builder's tags, keys, delayLevel, deliverAt or deliverAfter instead");
                }
                Objects.requireNonNull(value, () -> "property '" + name + "' has no value");
                requireText("value of property '" + name + "'", value);
            });
            if (delayLevel < 0 || delayLevel > MAX_DELAY_LEVEL) {
                throw new InvalidMessageException("delayLevel " + delayLevel + " is outside 0.." + MAX_DELAY_LEVEL);
            }
            validateDeliveryTime();
            return new Message(this);
        }

        private void validateDeliveryTime() {
            List<String> set = new ArrayList<>(3);
            if (delayLevel > 0) {
                set.add("delayLevel " + delayLevel);
            }
            if (deliveryTime != null) {
                set.add("deliverAt " + deliveryTime);
            }
            if (deliveryDelay != null) {
                set.add("deliverAfter " + deliveryDelay);
            }
            if (set.size() > 1) {
                throw new InvalidMessageException("a message to '" + topic + "' has " + String.join(" and ", set)
                        + ": set at most one of delayLevel, deliverAt and deliverAfter");
            }
            if (deliveryDelay != null && deliveryDelay.isNegative()) {
                throw new InvalidMessageException("deliverAfter " + deliveryDelay + " of a message to '" + topic
                        + "' is negative");
            }
            if (deliveryDelay != null && deliveryDelay.compareTo(LONGEST_DELAY) > 0) {
                throw new InvalidMessageException("deliverAfter " + deliveryDelay + " of a message to '" + topic
                        + "' does not fit in milliseconds");
            }
            if (deliveryTime != null && (deliveryTime.isBefore(Instant.EPOCH) || deliveryTime.isAfter(LATEST_TIME))) {
                throw new InvalidMessageException("deliverAt " + deliveryTime + " of a message to '" + topic
                        + "' is not a time in epoch milliseconds from " + Instant.EPOCH + " to " + LATEST_TIME);
            }
        }

        private static void requireText(String what, String text) {
            if (text == null || text.isEmpty()) {
                throw new InvalidMessageException(what + " must not be empty");
            }
            if (text.indexOf('\u0001') >= 0 || text.indexOf('\u0002') >= 0) {
                throw new InvalidMessageException(what + " '" + text + "' contains a property separator (char 1 or 2)");
            }
        }
    }
}
