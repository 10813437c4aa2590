package dev.ferry.components;

import dev.ferry.api.MessageModel;
import dev.ferry.client.ConsumeFromWhere;
import dev.ferry.client.PushConsumerConfig;
import dev.ferry.client.Subscription;
import dev.ferry.format.ConfigProblems;
import dev.ferry.spi.PluginConfig;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * One push consumer component's settings, from its factory configuration: the keys of the resource adapter's
 * activation spec, plus {@code nameServer} and, for broadcasting, {@code localOffsetDirectory}.
 *
 * @param nameServer {@code host:port;host:port}
 * @param consumer the consumer's settings
 * @param localOffsetDirectory where a broadcasting consumer keeps its offsets, if set
 */
record ConsumerComponentConfig(String nameServer, PushConsumerConfig consumer, Optional<Path> localOffsetDirectory) {
    /** Every key a consumer configuration may have. */
    static final Set<String> KEYS = Set.of("nameServer", "consumerGroup", "topic", "selectorType",
            "selectorExpression", "messageModel", "consumeMode", "consumeFromWhere", "maxConcurrency",
            "maxReconsumeTimes", "allocateStrategy", "fallbackAllocateStrategy", "offsetStore",
            "localOffsetDirectory");

    /** This config's wording: a missing key is named, a bad value shown with the rule it breaks; the first throws. */
    private static final ConfigProblems CHECK = ConfigProblems.failingFast((key, value, rule) -> value == null
            ? "key '" + key + "' " + rule : "invalid " + key + " = '" + value + "': " + rule);
    private static final String INTEGER = "must be an integer";

    /**
     * @throws IllegalArgumentException naming the first unknown key, missing key or bad value
     */
    static ConsumerComponentConfig from(Map<String, ?> configuration) {
        Properties keys = ComponentProperties.userKeys(configuration);
        for (String key : keys.stringPropertyNames()) {
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException("unknown key '" + key + "'; known keys: " + new TreeSet<>(KEYS));
            }
        }
        String nameServer = required(keys, "nameServer");
        PushConsumerConfig.Builder builder = PushConsumerConfig.builder(required(keys, "consumerGroup"))
                .subscribe(new Subscription(required(keys, "topic"), keys.getProperty("selectorType", "TAG").trim(),
                        keys.getProperty("selectorExpression", "*")))
                .messageModel(parse(keys, "messageModel", MessageModel.CLUSTERING,
                        v -> MessageModel.valueOf(upper(v)), ConfigProblems.oneOf(MessageModel.class)))
                .consumeOrderly(parse(keys, "consumeMode", false, v -> switch (upper(v)) {
                    case "ORDERLY" -> true;
                    case "CONCURRENTLY" -> false;
                    default -> throw new IllegalArgumentException(v);
                }, "must be CONCURRENTLY or ORDERLY"))
                .consumeFromWhere(parse(keys, "consumeFromWhere", ConsumeFromWhere.LAST_OFFSET,
                        v -> ConsumeFromWhere.valueOf(upper(v).replaceFirst("^CONSUME_FROM_", "")),
                        ConfigProblems.oneOf(ConsumeFromWhere.class)))
                .consumeThreads(parse(keys, "maxConcurrency", 20, Integer::parseInt, INTEGER))
                .maxReconsumeTimes(parse(keys, "maxReconsumeTimes", 16, Integer::parseInt, INTEGER))
                .allocateStrategy(keys.getProperty("allocateStrategy", "averagely").trim(), PluginConfig.empty());
        Optional.ofNullable(keys.getProperty("fallbackAllocateStrategy")).map(String::trim)
                .ifPresent(builder::fallbackAllocateStrategy);
        Optional.ofNullable(keys.getProperty("offsetStore")).map(String::trim).ifPresent(builder::offsetStore);
        Optional<Path> offsets = Optional.ofNullable(keys.getProperty("localOffsetDirectory")).map(String::trim)
                .map(Path::of);
        return new ConsumerComponentConfig(nameServer, builder.build(), offsets);
    }

    private static String required(Properties keys, String key) {
        String value = keys.getProperty(key);
        CHECK.require(value != null && !value.isBlank(), key, null, "is required");
        return value.trim();
    }

    /** {@code key}'s value parsed by {@code parser}, {@code otherwise} when it is not set. */
    private static <T> T parse(Properties keys, String key, T otherwise, Function<String, T> parser, String rule) {
        String value = keys.getProperty(key);
        if (value == null || value.isBlank()) {
            return otherwise;
        }
        return CHECK.parse(key, value.trim(), parser, rule).orElseThrow();
    }

    private static String upper(String value) {
        return value.toUpperCase(Locale.ROOT);
    }
}
