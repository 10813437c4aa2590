package dev.ferry.liberty.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ferry.api.Message;
import dev.ferry.client.ConsumeFromWhere;
import dev.ferry.client.PushConsumer;
import dev.ferry.client.PushConsumerConfig;
import dev.ferry.liberty.apps.TxMdb;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What a deployed tx-app (its row, its send and its bean in the server's JTA transactions) must show on any server:
 * commit delivers the message and keeps the row, rollback leaves neither; a bean whose transaction rolls back gets its
 * message again and keeps one row, from the attempt that committed.
 */
public final class TxRoundTrip {
    private static final Duration WAIT = Duration.ofSeconds(120);

    private TxRoundTrip() {
    }

    /** Commit and rollback of a row and a send in one transaction, through {@code app} (its context root). */
    public static void commitAndRollback(Http http, String app, String nameServer, Path directory) {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String topic = "tx-orders";
        String committed = "committed-" + run;
        String rolledBack = "rolled-back-" + run;
        String after = "after-" + run;
        List<String> received = new CopyOnWriteArrayList<>();
        try (Engine engine = new Engine(nameServer, directory)) {
            PushConsumer consumer = engine.client().pushConsumer(PushConsumerConfig.builder("tx-orders-" + run)
                    .subscribe(topic, "*").consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).consumeOrderly(true)
                    .build(), message -> received.add(message.keys().get(0)));
            try {
                assertThat(http.post("/" + app + "/tx/" + topic + "?key=" + committed + "&outcome=commit", ""))
                        .isNotBlank();
                http.post("/" + app + "/tx/" + topic + "?key=" + rolledBack + "&outcome=rollback", "");
                http.post("/" + app + "/tx/" + topic + "?key=" + after + "&outcome=commit", "");
                // one queue, consumed in order: once the last one is here, a delivered rollback would be too
                await().atMost(WAIT).until(() -> received.contains(after));
            } finally {
                consumer.close();
            }
        }
        assertThat(received).filteredOn(key -> key.endsWith(run)).containsExactly(committed, after);
        assertThat(rows(http, app, "ORDERS", committed)).isEqualTo(1);
        assertThat(rows(http, app, "ORDERS", rolledBack)).isZero();
        assertThat(rows(http, app, "ORDERS", after)).isEqualTo(1);
    }

    /** A message whose bean rolls back its first two deliveries: three deliveries, one row. */
    public static void rolledBackDelivery(Http http, String app, String nameServer, Path directory) {
        String body = "rollback-twice-" + UUID.randomUUID().toString().substring(0, 8);
        try (Engine engine = new Engine(nameServer, directory)) {
            engine.producer().send(Message.builder(TxMdb.TOPIC).body(body.getBytes(StandardCharsets.UTF_8)).build());
        }
        await().atMost(WAIT).until(() -> attempts(http, app, body).size() == 3);
        assertThat(attempts(http, app, body)).containsExactly(0, 1, 2);
        await().atMost(WAIT).until(() -> rows(http, app, "DELIVERIES", body) == 1);
    }

    private static int rows(Http http, String app, String table, String key) {
        return Integer.parseInt(http.get("/" + app + "/tx/rows/" + table + "?key=" + key));
    }

    /** The reconsumeTimes of each delivery of {@code body} to the bean, in order. */
    private static List<Integer> attempts(Http http, String app, String body) {
        List<Integer> attempts = new ArrayList<>();
        for (JsonNode delivery : http.getJson("/" + app + "/probe/deliveries?bean=TxMdb")) {
            if (delivery.path("body").asText().equals(body)) {
                attempts.add(delivery.path("reconsumeTimes").asInt());
            }
        }
        return attempts;
    }
}
