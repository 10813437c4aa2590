package dev.ferry.api;

import dev.ferry.format.MessageProperties;
import dev.ferry.format.NameRules;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A message to send: topic, body, tags, keys, user properties and an optional delay level.
 *
 * <p>Immutable and validated when built, so an invalid message never reaches a broker: the topic must
 * follow the broker's rules ({@link NameRules}: {@code ^[%|a-zA-Z0-9_-]+$}, at most
 * {@value #MAX_TOPIC_LENGTH} characters, or a group's retry topic), the body must be
 * non-empty and at most {@value #MAX_BODY_SIZE} bytes, tags, keys and properties must not contain the
 * property separators (characters 1 and 2), and user properties must not use the names RocketMQ reserves
 * ({@code TAGS}, {@code KEYS}, {@code UNIQ_KEY}, {@code DELAY}, ...). Build one with {@link #builder(String)}.
 */
public final class Message {
    /** Longest topic name accepted (a group's retry or dead-letter topic may be longer). */
    public static final int MAX_TOPIC_LENGTH = NameRules.TOPIC_MAX_LENGTH;
    /** Largest body accepted, in bytes (4 MiB, RocketMQ's default). */
    public static final int MAX_BODY_SIZE = 4 * 1024 * 1024;
    /** Highest delay level of RocketMQ's default table ("1s 5s ... 2h"). */
    public static final int MAX_DELAY_LEVEL = 18;


    private final String topic;
    private final byte[] body;
    private final String tags;
    private final List<String> keys;
    private final Map<String, String> properties;
    private final int delayLevel;

    private Message(Builder b) {
        this.topic = b.topic;
        this.body = b.body;
        this.tags = b.tags;
        this.keys = List.copyOf(b.keys);
        this.properties = Collections.unmodifiableMap(new LinkedHashMap<>(b.properties));
        this.delayLevel = b.delayLevel;
    }

    /** A builder that starts as a copy of this message (its topic, body, tags, keys, properties, delay). */
    public Builder toBuilder() {
        Builder copy = new Builder(topic).body(body).tags(tags).keys(keys).delayLevel(delayLevel);
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

    @Override
    public String toString() {
        return "Message[topic=" + topic + ", tags=" + tags + ", keys=" + keys + ", body=" + body.length
                + " bytes, properties=" + properties + ", delayLevel=" + delayLevel + "]";
    }

    /** Builds a {@link Message}. Not thread-safe. */
    public static final class Builder {
        private final String topic;
        private byte[] body;
        private String tags;
        private final List<String> keys = new ArrayList<>();
        private final Map<String, String> properties = new LinkedHashMap<>();
        private int delayLevel;

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

        /** Sets the delay level, 0 for none. */
        public Builder delayLevel(int value) {
            this.delayLevel = value;
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
                    throw new InvalidMessageException("property name '" + name
                            + "' is reserved; use the builder's tags, keys or delayLevel instead");
                }
                Objects.requireNonNull(value, () -> "property '" + name + "' has no value");
                requireText("value of property '" + name + "'", value);
            });
            if (delayLevel < 0 || delayLevel > MAX_DELAY_LEVEL) {
                throw new InvalidMessageException("delayLevel " + delayLevel + " is outside 0.." + MAX_DELAY_LEVEL);
            }
            return new Message(this);
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
