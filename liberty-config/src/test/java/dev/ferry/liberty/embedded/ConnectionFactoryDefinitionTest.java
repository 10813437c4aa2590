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
}
