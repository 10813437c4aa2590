package dev.ferry.liberty.support;

import dev.ferry.api.Message;
import dev.ferry.liberty.apps.RegexMdb;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Sends tagged messages to {@link RegexMdb}'s topic, all to one queue, and reports what the bean received of them
 * once the last (which its {@code TAG_REGEX} selects) is in: the bean is orderly, so every earlier message has been
 * decided by then.
 */
public final class FilterRoundTrip {
    private static final Duration WAIT = Duration.ofSeconds(90);
    /** What is sent, in order; the bean's {@code order-(paid|shipped)} keeps the marked ones. */
    public static final List<String> TAGS = List.of("order-created", "order-paid", "invoice", "order-shipped",
            "order-paid-twice", "order-shipped", "", "order-paid");
    /** What the bean must receive of {@link #TAGS}, in order. */
    public static final List<String> SELECTED = List.of("order-paid", "order-shipped", "order-shipped",
            "order-paid");

    private FilterRoundTrip() {
    }

    /** The tags of what the bean of {@code app} received, in the order it received them. */
    public static List<String> run(Http http, String app, String nameServer, Path offsets) {
        List<String> sent = new ArrayList<>();
        try (Engine engine = new Engine(nameServer, offsets)) {
            for (String tag : TAGS) {
                Message.Builder message = Message.builder(RegexMdb.TOPIC)
                        .body(("body of " + tag).getBytes(StandardCharsets.UTF_8));
                if (!tag.isEmpty()) {
                    message.tags(tag);
                }
                sent.add(engine.producer().send(message.build(), "one-queue").msgId());
            }
        }
        return DeliveredInOrder.of(http, "/" + app + "/probe/deliveries?bean=RegexMdb", sent, "tags", WAIT);
    }
}
