package dev.ferry.server.broker;

import dev.ferry.format.NameRules;
import dev.ferry.remoting.protocol.body.ConsumerData;
import java.util.List;

/**
 * The values a heartbeat's consumer settings may take: the names of Apache RocketMQ 5.3's enums, which are all its
 * clients send ({@code MessageModel}, {@code ConsumeType}, {@code ConsumeFromWhere} with its deprecated names). A
 * group keeps them for as long as it lives and shows them to admin tools, so nothing else is taken. A missing one
 * leaves the group's as it was.
 */
final class ConsumerModes {
    static final List<String> MESSAGE_MODELS = List.of("CLUSTERING", "BROADCASTING");
    static final List<String> CONSUME_TYPES = List.of("CONSUME_ACTIVELY", "CONSUME_PASSIVELY", "CONSUME_POP");
    static final List<String> CONSUME_FROM_WHERE = List.of("CONSUME_FROM_LAST_OFFSET",
            "CONSUME_FROM_LAST_OFFSET_AND_FROM_MIN_WHEN_BOOT_FIRST", "CONSUME_FROM_MIN_OFFSET",
            "CONSUME_FROM_MAX_OFFSET", "CONSUME_FROM_FIRST_OFFSET", "CONSUME_FROM_TIMESTAMP");

    private ConsumerModes() {
    }

    /** Why the broker does not take the consumer group's settings, or {@code null}. */
    static String problem(ConsumerData consumer) {
        String problem = problem("messageModel", consumer.messageModel(), MESSAGE_MODELS);
        if (problem == null) {
            problem = problem("consumeType", consumer.consumeType(), CONSUME_TYPES);
        }
        if (problem == null) {
            problem = problem("consumeFromWhere", consumer.consumeFromWhere(), CONSUME_FROM_WHERE);
        }
        return problem == null ? null : "consumer group " + consumer.groupName() + ": " + problem;
    }

    private static String problem(String field, String value, List<String> allowed) {
        if (value == null || allowed.contains(value)) {
            return null;
        }
        return field + " " + NameRules.shown(value) + " is not one of " + String.join(", ", allowed);
    }
}
