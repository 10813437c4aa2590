package dev.ferry.liberty.embedded;

import static dev.ferry.liberty.embedded.EmbeddedServer.HTTP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.api.ReceivedMessage;
import dev.ferry.client.ConsumeFromWhere;
import dev.ferry.client.PushConsumer;
import dev.ferry.client.PushConsumerConfig;
import dev.ferry.liberty.apps.FactoryResource;
import dev.ferry.liberty.support.Engine;
import dev.ferry.liberty.support.TestApps;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** An application defines its own connection factory with @ConnectionFactoryDefinition and sends through it. */
@ExtendWith(ArquillianExtension.class)
class ConnectionFactoryDefinitionTest {

    @TempDir
    Path directory;

    @Deployment(testable = false)
    static WebArchive factoryApp() {
        return TestApps.probeApp("factory-app", FactoryResource.class);
    }

    @Test
    void shouldSendThroughAConnectionFactoryTheApplicationDefined() {
        String msgId = HTTP.post("/factory-app/factory/own-factory-topic", "defined by the application");

        List<ReceivedMessage> received = new CopyOnWriteArrayList<>();
        try (Engine engine = new Engine(EmbeddedServer.NAME_SERVER, directory)) {
            PushConsumer consumer = engine.client().pushConsumer(PushConsumerConfig.builder("factory-test")
                    .subscribe("own-factory-topic", "*").consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).build(),
                    received::add);
            try {
                await().atMost(Duration.ofSeconds(60)).until(() -> !received.isEmpty());
            } finally {
                consumer.close();
            }
        }
        assertThat(received).singleElement().satisfies(message -> {
            assertThat(message.msgId()).isEqualTo(msgId);
            assertThat(new String(message.body(), StandardCharsets.UTF_8)).isEqualTo("defined by the application");
            assertThat(message.tags()).contains("own-factory");
        });
    }

    @Test
    void shouldDeliverAMessageTheApplicationDelayedNoEarlierThanItsDelay() {
        AtomicLong arrivedAt = new AtomicLong();
        try (Engine engine = new Engine(EmbeddedServer.NAME_SERVER, directory)) {
            long sentAt = System.currentTimeMillis();
            String msgId = HTTP.post("/factory-app/factory/own-factory-delayed?deliverAfterMillis=3000", "later");
            PushConsumer consumer = engine.client().pushConsumer(PushConsumerConfig.builder("factory-delay-test")
                    .subscribe("own-factory-delayed", "*").consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).build(),
                    message -> {
                        if (message.msgId().equals(msgId)) {
                            arrivedAt.compareAndSet(0, System.currentTimeMillis());
                        }
                    });
            try {
                await().atMost(Duration.ofSeconds(60)).until(() -> arrivedAt.get() != 0);
            } finally {
                consumer.close();
            }
            assertThat(arrivedAt.get() - sentAt).isGreaterThanOrEqualTo(3000);
        }
    }
}
