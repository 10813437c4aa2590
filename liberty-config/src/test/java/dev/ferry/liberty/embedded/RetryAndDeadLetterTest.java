package dev.ferry.liberty.embedded;

import static dev.ferry.liberty.embedded.EmbeddedServer.HTTP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ferry.api.Message;
import dev.ferry.liberty.apps.DeadLetterMdb;
import dev.ferry.liberty.apps.FailingMdb;
import dev.ferry.liberty.support.Engine;
import dev.ferry.liberty.support.ManagementView;
import dev.ferry.liberty.support.TestApps;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** A bean that throws gets the message again, counted; past maxReconsumeTimes it goes to the dead-letter queue. */
@ExtendWith(ArquillianExtension.class)
class RetryAndDeadLetterTest {
    private static final Duration WAIT = Duration.ofSeconds(90);

    @TempDir
    Path directory;

    @Deployment(testable = false)
    static WebArchive retryApp() {
        return TestApps.probeApp("retry-app", FailingMdb.class, DeadLetterMdb.class);
    }

    @Test
    void shouldRedeliverFailedMessagesAndDeadLetterThemAfterMaxReconsumeTimes() {
        String once;
        String poison;
        try (Engine engine = new Engine(EmbeddedServer.NAME_SERVER, directory)) {
            once = engine.producer().send(Message.builder(FailingMdb.TOPIC).body(utf8("fail-once")).keys("k-once")
                    .build()).msgId();
            poison = engine.producer().send(Message.builder(FailingMdb.TOPIC).body(utf8("poison")).keys("k-poison")
                    .property("origin", "retry-test").build()).msgId();
        }

        await().atMost(WAIT).until(() -> attempts("FailingMdb", once).size() == 2
                && attempts("DeadLetterMdb", poison).size() == 1);

        assertThat(attempts("FailingMdb", once)).containsExactly(0, 1);
        // maxReconsumeTimes 2: the first delivery and two retries, then the dead-letter queue.
        assertThat(attempts("FailingMdb", poison)).containsExactly(0, 1, 2);
        JsonNode deadLetter = deliveries("DeadLetterMdb").stream()
                .filter(d -> d.get("msgId").asText().equals(poison)).findFirst().orElseThrow();
        assertThat(deadLetter.get("body").asText()).isEqualTo("poison");
        assertThat(deadLetter.get("keys").get(0).asText()).isEqualTo("k-poison");
        assertThat(deadLetter.get("properties").get("origin").asText()).isEqualTo("retry-test");
        assertThat(deliveries("DeadLetterMdb")).noneMatch(d -> d.get("msgId").asText().equals(once));

        // the same, as the server's platform MBean server shows it: each activation's counts and readiness
        await().atMost(WAIT).untilAsserted(() -> {
            ManagementView beans = ManagementView.read(HTTP, "retry-app");
            JsonNode failing = beans.activation(FailingMdb.GROUP).orElseThrow();
            assertThat(failing.get("Consuming").asBoolean()).isTrue();
            assertThat(failing.get("NameServerReachable").asBoolean()).isTrue();
            assertThat(failing.get("Delivered").asLong()).isEqualTo(1); // fail-once, its second delivery
            assertThat(failing.get("Failed").asLong()).isEqualTo(4);    // fail-once once, poison three times
            assertThat(failing.get("Retried").asLong()).isEqualTo(3);
            assertThat(failing.get("DeadLettered").asLong()).isEqualTo(1);
            assertThat(failing.get("InFlight").asLong()).isZero();
            assertThat(failing.get("Lag").asLong()).isZero();
            assertThat(beans.activation(FailingMdb.GROUP + "-dlq").orElseThrow().get("Delivered").asLong())
                    .isEqualTo(1);
            JsonNode engine = beans.engine().orElseThrow();
            assertThat(engine.get("MessagesIn").asLong()).isGreaterThanOrEqualTo(2);
            assertThat(engine.get("ConsumerConnections").asLong()).isPositive();
        });
    }

    private static List<Integer> attempts(String bean, String msgId) {
        return deliveries(bean).stream().filter(d -> d.get("msgId").asText().equals(msgId))
                .map(d -> d.get("reconsumeTimes").asInt()).toList();
    }

    private static List<JsonNode> deliveries(String bean) {
        List<JsonNode> list = new ArrayList<>();
        HTTP.getJson("/retry-app/probe/deliveries?bean=" + bean).forEach(list::add);
        return list;
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
