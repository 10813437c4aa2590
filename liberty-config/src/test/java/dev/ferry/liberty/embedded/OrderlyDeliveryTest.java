package dev.ferry.liberty.embedded;

import static dev.ferry.liberty.embedded.EmbeddedServer.HTTP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ferry.api.Message;
import dev.ferry.liberty.apps.OrderlyMdb;
import dev.ferry.liberty.support.Engine;
import dev.ferry.liberty.support.TestApps;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** An ORDERLY bean sees each sharding key's messages in the order they were sent, one queue at a time. */
@ExtendWith(ArquillianExtension.class)
class OrderlyDeliveryTest {
    private static final int KEYS = 4;
    private static final int PER_KEY = 25;

    @TempDir
    Path directory;

    @Deployment(testable = false)
    static WebArchive orderlyApp() {
        return TestApps.probeApp("orderly-app", OrderlyMdb.class);
    }

    @Test
    void shouldDeliverEachShardingKeyInSendOrder() {
        Set<String> sent = new HashSet<>();
        try (Engine engine = new Engine(EmbeddedServer.NAME_SERVER, directory)) {
            for (int i = 0; i < PER_KEY; i++) {
                for (int k = 0; k < KEYS; k++) {
                    String key = "customer-" + k;
                    sent.add(engine.producer().send(Message.builder(OrderlyMdb.TOPIC).keys(key)
                            .body((key + ":" + i).getBytes(StandardCharsets.UTF_8)).build(), key).msgId());
                }
            }
        }

        // Only this run's messages: the server's store outlives a run when the build does not clean.
        List<JsonNode> deliveries = new ArrayList<>();
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            deliveries.clear();
            HTTP.getJson("/orderly-app/probe/deliveries?bean=OrderlyMdb").forEach(d -> {
                if (sent.contains(d.get("msgId").asText())) {
                    deliveries.add(d);
                }
            });
            return deliveries.size() >= KEYS * PER_KEY;
        });

        assertThat(deliveries).hasSize(KEYS * PER_KEY).noneMatch(d -> d.get("overlapped").asBoolean());
        Map<String, List<Integer>> sequences = new LinkedHashMap<>();
        for (JsonNode delivery : deliveries) {
            String[] parts = delivery.get("body").asText().split(":");
            sequences.computeIfAbsent(parts[0], k -> new ArrayList<>()).add(Integer.parseInt(parts[1]));
        }
        assertThat(sequences).hasSize(KEYS);
        List<Integer> expected = IntStream.range(0, PER_KEY).boxed().toList();
        sequences.forEach((key, sequence) -> assertThat(sequence).as(key).isEqualTo(expected));
    }
}
