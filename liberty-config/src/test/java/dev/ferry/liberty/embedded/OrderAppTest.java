package dev.ferry.liberty.embedded;

import static dev.ferry.liberty.embedded.EmbeddedServer.HTTP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ferry.api.Message;
import dev.ferry.docs.DocumentedBlocks;
import dev.ferry.client.PushConsumer;
import dev.ferry.client.PushConsumerConfig;
import dev.ferry.liberty.support.Engine;
import dev.ferry.liberty.support.Http;
import dev.ferry.liberty.support.OrderRoundTrip;
import dev.ferry.liberty.support.TestApps;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The order-app sample on Liberty with the embedded engine: what goes in through REST comes out in the bean, a body
 * that is not an order is refused and never sent, and a transactional order keeps its row and delivers its message on
 * commit and leaves neither on rollback.
 */
@ExtendWith(ArquillianExtension.class)
class OrderAppTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @ArquillianResource
    private Deployer deployer;

    @TempDir
    Path directory;

    // A name for each test, so that each deploys an archive of its own (see server.xml).
    @Deployment(name = "order-app", managed = false, testable = false)
    static WebArchive orderApp() {
        return TestApps.orderApp("order-app");
    }

    @Deployment(name = "order-app-again", managed = false, testable = false)
    static WebArchive orderAppAgain() {
        return TestApps.orderApp("order-app-again");
    }

    @Deployment(name = "order-app-tx", managed = false, testable = false)
    static WebArchive orderAppTx() {
        return TestApps.orderApp("order-app-tx");
    }

    @Test
    void shouldDeliverToTheBeanExactlyWhatTheRestResourceSentAndRefuseABadOrderInOneLine() {
        deployer.deploy("order-app");
        try {
            OrderRoundTrip.verify(HTTP, "order-app");
            // the README's own commands, as a newcomer types them (but on this server's port): the GET lists the
            // order once the bean has it, which may take a moment after the POST, as for the newcomer
            await().atMost(WAIT).untilAsserted(() -> assertThat(
                    DocumentedBlocks.run("README.md", "readme-order", Map.of(9080, HTTP.port())))
                    .contains("book").contains("customer"));
            // and docs/transactions.md's: a commit, a rollback, what they left, a bad order
            Map<Integer, Integer> port = Map.of(9080, HTTP.port());
            assertThat(DocumentedBlocks.run("docs/transactions.md", "tx-orders", port))
                    .contains("\"outcome\":\"COMMITTED\"").contains("\"outcome\":\"ROLLED_BACK\"");
            await().atMost(WAIT).untilAsserted(() -> assertThat(
                    DocumentedBlocks.run("docs/transactions.md", "tx-see", port))
                    .contains("\"item\":\"lamp\"").doesNotContain("vase").contains("transactional"));
            assertThat(DocumentedBlocks.run("docs/transactions.md", "tx-bad", port))
                    .contains("\"quantity\" must be a whole number from 1 to 1000000: 0").endsWith("400\n");

            Http.Answer empty = HTTP.postAnswer("/order-app/orders", "");
            Http.Answer badProperty = HTTP.postAnswer("/order-app/orders?property=novalue", "order");

            assertThat(empty.status()).isEqualTo(400);
            assertThat(empty.contentType()).startsWith("text/plain");
            assertThat(empty.body()).isEqualTo("the body of a message to 'orders' must not be empty\n");
            assertThat(badProperty.status()).isEqualTo(400);
            assertThat(badProperty.body()).isEqualTo("property must be name=value: novalue\n");
            assertThat(EmbeddedServer.LOG.linesWith("must not be empty")).as("nothing logged for a client's mistake")
                    .isEmpty();
            assertThat(EmbeddedServer.LOG.linesWith("InvalidMessageException")).isEmpty();

            String run = UUID.randomUUID().toString().substring(0, 8);
            Map<String, String> refusals = new LinkedHashMap<>();
            refusals.put("{\"item\":", "the order is not valid JSON");
            refusals.put("not json " + run, "the order is not valid JSON (line 1, column 2)");
            refusals.put("{\"quantity\":2,\"note\":\"" + run + "\"}", "the order has no \"item\"");
            refusals.put("{\"item\":\"pen-" + run + "\",\"quantity\":-1}",
                    "\"quantity\" must be a whole number from 1 to 1000000: -1");
            refusals.forEach((body, why) -> {
                Http.Answer answer = HTTP.postAnswer("/order-app/orders", body);
                assertThat(answer.status()).as(body).isEqualTo(400);
                assertThat(answer.contentType()).startsWith("text/plain");
                assertThat(answer.body()).as(body).startsWith(why).endsWith("\n").hasLineCount(1);
            });
            // An order sent after the refused ones: once the bean has it, any refused one that had reached the
            // broker would have had as long to arrive.
            String after = HTTP.postJson("/order-app/orders", "{\"item\":\"after-" + run + "\"}").get("msgId")
                    .asText();
            await().atMost(WAIT).until(() -> OrderRoundTrip.msgIds(HTTP.getJson("/order-app/orders/received"))
                    .contains(after));
            assertThat(bodies(HTTP.getJson("/order-app/orders/received"))).noneMatch(body -> body.contains(run)
                    && !body.contains("after-"));
        } finally {
            deployer.undeploy("order-app");
        }
    }

    @Test
    void shouldKeepTheRowAndDeliverTheMessageOnCommitAndLeaveNeitherOnRollback() {
        deployer.deploy("order-app-tx");
        try {
            String run = UUID.randomUUID().toString().substring(0, 8);
            JsonNode committed = HTTP.postJson("/order-app-tx/orders/transactional?outcome=commit",
                    "{\"item\":\"committed-" + run + "\",\"quantity\":3}");
            JsonNode rolledBack = HTTP.postJson("/order-app-tx/orders/transactional?outcome=rollback",
                    "{\"item\":\"rolled-back-" + run + "\"}");
            JsonNode after = HTTP.postJson("/order-app-tx/orders/transactional?outcome=commit",
                    "{\"item\":\"after-" + run + "\"}");
            assertThat(committed.get("outcome").asText()).isEqualTo("COMMITTED");
            assertThat(rolledBack.get("outcome").asText()).isEqualTo("ROLLED_BACK");
            assertThat(after.get("outcome").asText()).isEqualTo("COMMITTED");
            String committedId = committed.get("row").get("msgId").asText();
            String rolledBackId = rolledBack.get("row").get("msgId").asText();
            String afterId = after.get("row").get("msgId").asText();

            Http.Answer badOutcome = HTTP.postAnswer("/order-app-tx/orders/transactional?outcome=maybe",
                    "{\"item\":\"maybe-" + run + "\"}");
            Http.Answer badOrder = HTTP.postAnswer("/order-app-tx/orders/transactional?outcome=commit",
                    "{\"item\":\"bad-" + run + "\",\"quantity\":0}");
            assertThat(badOutcome.status()).isEqualTo(400);
            assertThat(badOutcome.body()).isEqualTo("outcome must be commit or rollback\n");
            assertThat(badOrder.status()).isEqualTo(400);
            assertThat(badOrder.body()).isEqualTo("\"quantity\" must be a whole number from 1 to 1000000: 0\n");

            await().atMost(WAIT).until(() -> OrderRoundTrip.msgIds(HTTP.getJson("/order-app-tx/orders/received"))
                    .containsAll(List.of(committedId, afterId)));
            JsonNode received = HTTP.getJson("/order-app-tx/orders/received");
            assertThat(OrderRoundTrip.msgIds(received)).doesNotContain(rolledBackId);
            assertThat(bodies(received)).filteredOn(body -> body.contains(run)).containsExactlyInAnyOrder(
                    "{\"item\":\"committed-" + run + "\",\"quantity\":3}", "{\"item\":\"after-" + run + "\"}");
            for (JsonNode order : received) {
                if (order.get("msgId").asText().equals(committedId)) {
                    assertThat(order.get("tags").asText()).isEqualTo("transactional");
                }
            }

            List<String> rows = new ArrayList<>();
            for (JsonNode row : HTTP.getJson("/order-app-tx/orders/transactional")) {
                if (row.get("item").asText().endsWith(run)) {
                    rows.add(row.get("item").asText() + " x" + row.get("quantity").asInt() + " "
                            + row.get("msgId").asText());
                }
            }
            assertThat(rows).containsExactly("after-" + run + " x1 " + afterId,
                    "committed-" + run + " x3 " + committedId);
        } finally {
            deployer.undeploy("order-app-tx");
        }
    }

    @Test
    void shouldStopDeliveringWhenTheApplicationIsUndeployed() {
        deployer.deploy("order-app-again");
        String before;
        try {
            before = HTTP.postJson("/order-app-again/orders?keys=before-undeploy",
                    "{\"item\":\"before\"}").get("msgId").asText();
            await().atMost(WAIT).until(() -> OrderRoundTrip.msgIds(HTTP.getJson("/order-app-again/orders/received"))
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

    private static List<String> bodies(JsonNode received) {
        List<String> bodies = new ArrayList<>();
        received.forEach(order -> bodies.add(order.get("body").asText()));
        return bodies;
    }
}
