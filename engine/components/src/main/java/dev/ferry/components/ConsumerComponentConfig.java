package dev.ferry.components;

import dev.ferry.api.MessageModel;
import dev.ferry.client.ConsumeFromWhere;
import dev.ferry.client.PushConsumerConfig;
import dev.ferry.client.Subscription;
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
                        v -> MessageModel.valueOf(upper(v))))
                .consumeOrderly(parse(keys, "consumeMode", false, v -> switch (upper(v)) {
                    case "ORDERLY" -> true;
                    case "CONCURRENTLY" -> false;
                    default -> throw new IllegalArgumentException("must be CONCURRENTLY or ORDERLY");
                }))
                .consumeFromWhere(parse(keys, "consumeFromWhere", ConsumeFromWhere.LAST_OFFSET,
                        v -> ConsumeFromWhere.valueOf(upper(v).replaceFirst("^CONSUME_FROM_", ""))))
                .consumeThreads(parse(keys, "maxConcurrency", 20, Integer::parseInt))
                .maxReconsumeTimes(parse(keys, "maxReconsumeTimes", 16, Integer::parseInt))
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
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("key '" + key + "' is required");
        }
        return value.trim();
    }

    private static <T> T parse(Properties keys, String key, T otherwise, Function<String, T> parser) {
        String value = keys.getProperty(key);
        if (value == null || value.isBlank()) {
            return otherwise;
        }
        try {
            return parser.apply(value.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid " + key + " = '" + value + "'"
                    + (e.getMessage() != null && !(e instanceof NumberFormatException) ? ": " + e.getMessage() : ""),
                    e);
        }
    }

    private static String upper(String value) {
        return value.toUpperCase(Locale.ROOT);
    }
}
