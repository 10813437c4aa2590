package dev.ferry.liberty.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ferry.client.cluster.TestCluster;
import dev.ferry.client.peer.ApachePeer;
import dev.ferry.client.peer.FerryServerCluster;
import dev.ferry.liberty.apps.RegexMdb;
import dev.ferry.liberty.support.BeanOperations;
import dev.ferry.liberty.support.Engine;
import dev.ferry.liberty.support.FilterRoundTrip;
import dev.ferry.liberty.support.Http;
import dev.ferry.liberty.support.OrderRoundTrip;
import dev.ferry.liberty.support.TestApps;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
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

/**
 * The adapter in remote mode: order-app's round trip through a ferry-server and through an Apache RocketMQ
 * 5.3.3 broker, each started by the test before Liberty, which learns its address from a config override; and through
 * clusters of several brokers (three of Ferry's, two of Apache's), whose every broker the bean consumes from; and a
 * bean's group replayed on Apache's broker.
 */
@ExtendWith(ArquillianExtension.class)
class RemoteModeTest {
    private static final String CONTAINER = "liberty-remote";
    private static final Http HTTP = new Http(19280);
    private static final Path OVERRIDES = Path.of("target/liberty/wlp/usr/servers/ferry-remote/configDropins/overrides");

    @TempDir
    Path offsets;

    @ArquillianResource
    private ContainerController controller;

    @ArquillianResource
    private Deployer deployer;

    @Deployment(name = "order-app-ferry", managed = false, testable = false)
    @TargetsContainer(CONTAINER)
    static WebArchive againstFerry() {
        return TestApps.orderApp("order-app-ferry");
    }

    @Deployment(name = "order-app-apache", managed = false, testable = false)
    @TargetsContainer(CONTAINER)
    static WebArchive againstApache() {
        return TestApps.orderApp("order-app-apache");
    }

    @Deployment(name = "plugin-app-apache", managed = false, testable = false)
    @TargetsContainer(CONTAINER)
    static WebArchive pluginAppAgainstApache() {
        return TestApps.probeApp("plugin-app-apache", RegexMdb.class);
    }

    @Deployment(name = "ops-app", managed = false, testable = false)
    @TargetsContainer(CONTAINER)
    static WebArchive opsApp() {
        return TestApps.opsApp();
    }

    @Deployment(name = "order-app-ferry-cluster", managed = false, testable = false)
    @TargetsContainer(CONTAINER)
    static WebArchive againstFerryCluster() {
        return TestApps.orderApp("order-app-ferry-cluster");
    }

    @Deployment(name = "order-app-apache-cluster", managed = false, testable = false)
    @TargetsContainer(CONTAINER)
    static WebArchive againstApacheCluster() {
        return TestApps.orderApp("order-app-apache-cluster");
    }

    @Test
    void shouldDeliverFromEveryBrokerOfAThreeBrokerFerryCluster(@TempDir Path dir) throws Exception {
        try (TestCluster cluster = TestCluster.ferry(dir, 3)) {
            spreadRoundTrip(cluster, "order-app-ferry-cluster");
        }
    }

    @Test
    void shouldDeliverFromEveryBrokerOfATwoBrokerApacheCluster(@TempDir Path dir) throws Exception {
        try (TestCluster cluster = TestCluster.apache(dir, 2)) {
            spreadRoundTrip(cluster, "order-app-apache-cluster");
        }
    }

    /**
     * With the orders topic on every broker, the application's sends spread over all of them and its bean gets every
     * message, having consumed (and committed) on each broker.
     */
    private void spreadRoundTrip(TestCluster cluster, String app) throws IOException {
        int brokers = cluster.brokerNames().size();
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
                .until(() -> cluster.createTopic("orders", 4) == brokers);
        roundTrip(cluster.nameServerAddress(), app, () -> {
            Set<String> sent = new HashSet<>();
            for (int i = 0; i < 8 * brokers; i++) { // more sends than queues: every queue gets some
                JsonNode order = HTTP.postJson("/" + app + "/orders?keys=spread-" + i, "{\"item\":\"spread\"}");
                assertThat(order.get("status").asText()).isEqualTo("SEND_OK");
                sent.add(order.get("msgId").asText());
            }
            await().atMost(Duration.ofSeconds(90)).until(() ->
                    OrderRoundTrip.msgIds(HTTP.getJson("/" + app + "/orders/received")).containsAll(sent));
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                Map<String, Long> committed = cluster.committedPerBroker("order-app", "orders");
                assertThat(committed).as("the bean's group's committed offsets per broker")
                        .containsOnlyKeys(cluster.brokerNames()).allSatisfy((broker, offset) ->
                                assertThat(offset).isPositive());
                assertThat(committed.values().stream().mapToLong(Long::longValue).sum())
                        .as("every order, the three of the round trip included").isEqualTo(sent.size() + 3L);
            });
        });
    }

    @Test
    void shouldDeliverThroughAFerryServer() throws IOException {
        try (FerryServerCluster cluster = FerryServerCluster.start()) {
            roundTrip(cluster.nameServerAddress(), "order-app-ferry", () -> { });
        }
    }

    @Test
    void shouldDeliverThroughApacheRocketMq() throws Exception {
        try (ApachePeer peer = ApachePeer.start()) {
            roundTrip(peer.nameServerAddress(), "order-app-apache", () -> {
                // The server gives the adapter the sample plugin jar as a shared library; its filter runs in
                // the bean's consumer, so an Apache broker, which has no such filter, serves the bean as well.
                deployer.deploy("plugin-app-apache");
                try {
                    assertThat(FilterRoundTrip.run(HTTP, "plugin-app-apache", peer.nameServerAddress(), offsets))
                            .isEqualTo(FilterRoundTrip.SELECTED);
                } finally {
                    deployer.undeploy("plugin-app-apache");
                }
                // A replay is the broker's work (its offset reset): a bean's group moved back on Apache's broker,
                // which applies it at the consumer's next pull.
                deployer.deploy("ops-app");
                try (Engine engine = new Engine(peer.nameServerAddress(), offsets)) {
                    new BeanOperations(HTTP, engine).replayWhileTheBeanRuns(null);
                } finally {
                    deployer.undeploy("ops-app");
                }
            });
        }
    }

    private void roundTrip(String nameServer, String app, Runnable alsoWhileRunning) throws IOException {
        Files.createDirectories(OVERRIDES);
        Files.writeString(OVERRIDES.resolve("cluster.xml"), "<server>\n  <variable name=\"ferry.nameServer\" value=\""
                + nameServer + "\"/>\n</server>\n", StandardCharsets.UTF_8);
        controller.start(CONTAINER);
        try {
            deployer.deploy(app);
            try {
                OrderRoundTrip.verify(HTTP, app);
                alsoWhileRunning.run();
            } finally {
                deployer.undeploy(app);
            }
        } finally {
            controller.stop(CONTAINER);
        }
    }
}
