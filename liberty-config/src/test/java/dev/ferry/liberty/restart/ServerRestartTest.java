package dev.ferry.liberty.restart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ferry.api.Message;
import dev.ferry.liberty.support.Engine;
import dev.ferry.liberty.support.Http;
import dev.ferry.liberty.support.OrderRoundTrip;
import dev.ferry.liberty.support.TestApps;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Set;
import org.jboss.arquillian.container.test.api.ContainerController;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.TargetsContainer;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Stopping and starting Open Liberty loses no message of the embedded engine and no acknowledgement. */
@ExtendWith(ArquillianExtension.class)
class ServerRestartTest {
    private static final String CONTAINER = "liberty-restart";
    private static final Http HTTP = new Http(19180);
    private static final String NAME_SERVER = "127.0.0.1:19976";
    private static final Duration WAIT = Duration.ofSeconds(90);

    @ArquillianResource
    private ContainerController controller;

    @ArquillianResource
    private Deployer deployer;

    @TempDir
    Path directory;

    @Deployment(name = "order-app", managed = false, testable = false)
    @TargetsContainer(CONTAINER)
    static WebArchive orderApp() {
        return TestApps.orderApp("order-app");
    }

    // Another name after the restart: each archive name keeps its own server.xml declaration.
    @Deployment(name = "order-app-restarted", managed = false, testable = false)
    @TargetsContainer(CONTAINER)
    static WebArchive orderAppRestarted() {
        return TestApps.orderApp("order-app-restarted");
    }

    @Test
    void shouldDeliverAfterARestartEveryMessageSentBeforeItAndNothingAcknowledgedTwice() {
        controller.start(CONTAINER);
        try {
            deployer.deploy("order-app");
            Set<String> acknowledged = new LinkedHashSet<>();
            for (int i = 0; i < 10; i++) {
                acknowledged.add(HTTP.postJson("/order-app/orders?keys=before-" + i,
                        "{\"item\":\"before restart " + i + "\"}")
                        .get("msgId").asText());
            }
            await().atMost(WAIT).until(() -> OrderRoundTrip.msgIds(HTTP.getJson("/order-app/orders/received"))
                    .containsAll(acknowledged));
            deployer.undeploy("order-app");

            // Sent while no bean listens: they wait in the embedded store through the restart.
            Set<String> pending = new LinkedHashSet<>();
            try (Engine engine = new Engine(NAME_SERVER, directory)) {
                for (int i = 0; i < 50; i++) {
                    pending.add(engine.producer().send(Message.builder("orders")
                            .body(("pending " + i).getBytes(StandardCharsets.UTF_8)).build()).msgId());
                }
            }

            controller.stop(CONTAINER);
            controller.start(CONTAINER);
            deployer.deploy("order-app-restarted");

            Set<String> received = new HashSet<>();
            await().atMost(WAIT).until(() -> {
                JsonNode list = HTTP.getJson("/order-app-restarted/orders/received");
                received.addAll(OrderRoundTrip.msgIds(list));
                return received.containsAll(pending);
            });
            assertThat(received).doesNotContainAnyElementsOf(acknowledged);
            deployer.undeploy("order-app-restarted");
        } finally {
            controller.stop(CONTAINER);
        }
    }
}
