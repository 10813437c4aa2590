package dev.ferry.liberty.support;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What an orderly test bean received of the messages a test sent to one queue: once the last of them (which the
 * bean must receive) is in, every earlier one has been decided, so the list is final.
 */
public final class DeliveredInOrder {

    private DeliveredInOrder() {
    }

    /**
     * @param deliveries the probe path listing the bean's deliveries, such as
     *     {@code /app/probe/deliveries?bean=RegexMdb}
     * @param sent the message ids sent, in order; the last must reach the bean
     * @param field which field of each delivery to report ({@code body}, {@code tags})
     * @return that field of each of {@code sent} the bean received, in the order it received them
     */
    public static List<String> of(Http http, String deliveries, List<String> sent, String field, Duration wait) {
        String last = sent.get(sent.size() - 1);
        List<String> values = new ArrayList<>();
        await().atMost(wait).until(() -> {
            values.clear();
            boolean lastIn = false;
            for (JsonNode delivery : http.getJson(deliveries)) {
                String msgId = delivery.get("msgId").asText();
                if (sent.contains(msgId)) {
                    values.add(delivery.get(field).asText());
                    lastIn |= msgId.equals(last);
                }
            }
            return lastIn;
        });
        return values;
    }
}
