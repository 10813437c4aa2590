package dev.ferry.liberty.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.StreamSupport;

/**
 * Sends three orders through a deployed order-app's REST resource and checks that its bean received each
 * exactly: body, tags, keys, properties, queue and offset.
 */
public final class OrderRoundTrip {
    private static final Duration WAIT = Duration.ofSeconds(90);

    private OrderRoundTrip() {
    }

    /** Runs the round trip against order-app deployed as {@code app} (its context root). */
    public static void verify(Http http, String app) {
        JsonNode book = http.postJson("/" + app + "/orders?tags=created&keys=order-1&keys=ann"
                + "&property=" + encode("customer=ann") + "&property=" + encode("channel=web"),
                "{\"item\":\"book\",\"quantity\":2}");
        JsonNode pen = http.postJson("/" + app + "/orders?tags=cancelled&keys=order-2", "{\"item\":\"pen\"}");
        JsonNode cake = http.postJson("/" + app + "/orders?property=" + encode("note=crème brûlée, s'il vous plaît"),
                "{\"item\":\"gâteau\"}");
        assertThat(List.of(book, pen, cake)).allSatisfy(sent -> assertThat(sent.get("status").asText())
                .isEqualTo("SEND_OK"));

        Map<String, JsonNode> received = new HashMap<>();
        await().atMost(WAIT).until(() -> {
            for (JsonNode order : http.getJson("/" + app + "/orders/received")) {
                received.put(order.get("msgId").asText(), order);
            }
            return received.keySet().containsAll(msgIds(book, pen, cake));
        });

        JsonNode first = received.get(book.get("msgId").asText());
        assertThat(first.get("topic").asText()).isEqualTo("orders");
        assertThat(first.get("body").asText()).isEqualTo("{\"item\":\"book\",\"quantity\":2}");
        assertThat(first.get("tags").asText()).isEqualTo("created");
        assertThat(texts(first.get("keys"))).containsExactly("order-1", "ann");
        assertThat(first.get("properties").get("customer").asText()).isEqualTo("ann");
        assertThat(first.get("properties").get("channel").asText()).isEqualTo("web");
        assertThat(first.get("queueId").asInt()).isEqualTo(book.get("queueId").asInt());
        assertThat(first.get("queueOffset").asLong()).isEqualTo(book.get("queueOffset").asLong());
        assertThat(first.get("reconsumeTimes").asInt()).isZero();
        assertThat(first.get("bornTimestamp").asLong()).isPositive();

        JsonNode second = received.get(pen.get("msgId").asText());
        assertThat(second.get("body").asText()).isEqualTo("{\"item\":\"pen\"}");
        assertThat(second.get("tags").asText()).isEqualTo("cancelled");
        assertThat(texts(second.get("keys"))).containsExactly("order-2");

        JsonNode third = received.get(cake.get("msgId").asText());
        assertThat(third.get("body").asText()).isEqualTo("{\"item\":\"gâteau\"}");
        assertThat(third.hasNonNull("tags")).isFalse();
        assertThat(texts(third.get("keys"))).isEmpty();
        assertThat(third.get("properties").get("note").asText()).isEqualTo("crème brûlée, s'il vous plaît");
    }

    /** The msgIds of send results, or of every element of a received list. */
    public static Set<String> msgIds(JsonNode... nodes) {
        Set<String> ids = new LinkedHashSet<>();
        for (JsonNode node : nodes) {
            if (node.isArray()) {
                node.forEach(n -> ids.add(n.get("msgId").asText()));
            } else {
                ids.add(node.get("msgId").asText());
            }
        }
        return ids;
    }

    private static List<String> texts(JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false).map(JsonNode::asText).toList();
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
