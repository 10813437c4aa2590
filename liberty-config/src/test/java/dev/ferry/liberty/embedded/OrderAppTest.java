package dev.ferry.liberty.embedded;

import static dev.ferry.liberty.embedded.EmbeddedServer.HTTP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ferry.api.Message;
import dev.ferry.client.PushConsumer;
import dev.ferry.client.PushConsumerConfig;
import dev.ferry.liberty.support.Engine;
import dev.ferry.liberty.support.TestApps;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.StreamSupport;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The order-app sample on Liberty with the embedded engine: what goes in through REST comes out in the bean. */
@ExtendWith(ArquillianExtension.class)
class OrderAppTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @ArquillianResource
    private Deployer deployer;

    @TempDir
    Path directory;

    // Two names, so that each test deploys an archive of its own (see server.xml).
    @Deployment(name = "order-app", managed = false, testable = false)
    static WebArchive orderApp() {
        return TestApps.orderApp("order-app");
    }

    @Deployment(name = "order-app-again", managed = false, testable = false)
    static WebArchive orderAppAgain() {
        return TestApps.orderApp("order-app-again");
    }

    @Test
    void shouldDeliverToTheBeanExactlyWhatTheRestResourceSent() {
        deployer.deploy("order-app");
        try {
            JsonNode book = HTTP.postJson("/order-app/orders?tags=created&keys=order-1&keys=ann"
                    + "&property=" + encode("customer=ann") + "&property=" + encode("channel=web"),
                    "{\"item\":\"book\",\"quantity\":2}");
            JsonNode pen = HTTP.postJson("/order-app/orders?tags=cancelled&keys=order-2", "{\"item\":\"pen\"}");
            JsonNode cake = HTTP.postJson("/order-app/orders?property=" + encode("note=crème brûlée, s'il vous plaît"),
                    "{\"item\":\"gâteau\"}");
            assertThat(List.of(book, pen, cake)).allSatisfy(sent -> assertThat(sent.get("status").asText())
                    .isEqualTo("SEND_OK"));

            Map<String, JsonNode> received = new HashMap<>();
            await().atMost(WAIT).until(() -> {
                for (JsonNode order : HTTP.getJson("/order-app/orders/received")) {
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
        } finally {
            deployer.undeploy("order-app");
        }
    }

    @Test
    void shouldStopDeliveringWhenTheApplicationIsUndeployed() {
        deployer.deploy("order-app-again");
        String before;
        try {
            before = HTTP.postJson("/order-app-again/orders?keys=before-undeploy", "before").get("msgId").asText();
            await().atMost(WAIT).until(() -> msgIds(HTTP.getJson("/order-app-again/orders/received"))
                    .contains(before));
        } finally {
            deployer.undeploy("order-app-again");
        }
        assertThat(EmbeddedServer.LOG.linesWith("FERRY-RA-0222"))
                .anyMatch(line -> line.contains("order-app-again") && line.contains("offsets persisted"));

        try (Engine engine = new Engine(EmbeddedServer.NAME_SERVER, directory)) {
            Set<String> sent = new LinkedHashSet<>();
            for (int i = 0; i < 20; i++) {
                sent.add(engine.producer().send(Message.builder("orders")
                        .body(("after-undeploy-" + i).getBytes(StandardCharsets.UTF_8)).build()).msgId());
            }
            // A member of the bean's group started now gets all of them: the undeployed bean left the group
            // (else it would keep half the queues) and took none; what it acknowledged stays acknowledged.
            Set<String> received = ConcurrentHashMap.newKeySet();
            PushConsumer consumer = engine.client().pushConsumer(PushConsumerConfig.builder("order-app")
                    .subscribe("orders", "*").build(), message -> received.add(message.msgId()));
            try {
                await().atMost(WAIT).until(() -> received.containsAll(sent));
            } finally {
                consumer.close();
            }
            assertThat(received).doesNotContain(before);
        }
    }

    private static Set<String> msgIds(JsonNode... nodes) {
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
