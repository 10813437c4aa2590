package dev.ferry.liberty.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.client.ConsumeFromWhere;
import dev.ferry.client.Producer;
import dev.ferry.client.ProducerConfig;
import dev.ferry.client.PushConsumer;
import dev.ferry.client.PushConsumerConfig;
import dev.ferry.client.TransactionState;
import dev.ferry.client.cluster.TestCluster;
import dev.ferry.format.MessageProperties;
import dev.ferry.liberty.apps.TxResource;
import dev.ferry.liberty.apps.TxService;
import dev.ferry.liberty.support.Containers;
import dev.ferry.liberty.support.Engine;
import dev.ferry.liberty.support.Http;
import dev.ferry.liberty.support.ServerJvm;
import dev.ferry.liberty.support.TestApps;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
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
 * Liberty SIGKILLed in the middle of a transaction that holds a row of an embedded Derby database and a Ferry send,
 * then started again: its transaction recovery, through the adapter's {@code recover()}, ends the Ferry branch as the
 * transaction manager decided. Killed while Ferry's commit waits (the broker is paused, then killed before it reads
 * the commit), both the row and the message are there after the restart, the message once, against a Ferry cluster
 * and an Apache RocketMQ one. Killed before the transaction prepared, neither is (the transaction manager has no
 * record of that branch, so its half message waits for the broker's checks to give up on it).
 */
@ExtendWith(ArquillianExtension.class)
class TransactionRecoveryTest {
    private static final String CONTAINER = "liberty-remote";
    private static final Http HTTP = new Http(19280);
    private static final Path OVERRIDES = Path.of("target/liberty/wlp/usr/servers/ferry-remote/configDropins/overrides");
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final String TOPIC = "tx-recovery";
    /** The connection factory's producer group (common.xml) and the property that names a half message's branch. */
    private static final String PRODUCER_GROUP = "order-app";
    private static final String BRANCH = "FERRY_XA_BRANCH";

    @ArquillianResource
    private ContainerController controller;

    @ArquillianResource
    private Deployer deployer;

    @Deployment(name = "tx-app", managed = false, testable = false)
    @TargetsContainer(CONTAINER)
    static WebArchive txApp() {
        return TestApps.probeApp("tx-app", TxResource.class, TxService.class);
    }

    @Deployment(name = "tx-app-restarted", managed = false, testable = false)
    @TargetsContainer(CONTAINER)
    static WebArchive txAppRestarted() {
        return TestApps.probeApp("tx-app-restarted", TxResource.class, TxService.class);
    }

    @Test
    void shouldRecoverBothTheRowAndTheMessageOfATransactionKilledWhileCommitting(@TempDir Path dir)
            throws Exception {
        try (TestCluster cluster = TestCluster.ferry(dir, 1)) {
            recoverAKilledCommit(cluster, dir);
        } finally {
            stopQuietly();
        }
    }

    @Test
    void shouldRecoverATransactionKilledWhileCommittingAgainstApacheRocketMq(@TempDir Path dir) throws Exception {
        try (TestCluster cluster = TestCluster.apache(dir, 1)) {
            recoverAKilledCommit(cluster, dir);
        } finally {
            stopQuietly();
        }
    }

    private void recoverAKilledCommit(TestCluster cluster, Path dir) throws Exception {
        String key = "committing-" + UUID.randomUUID();
        createTopicOnTheBroker(cluster);
        killInTheMiddle(cluster, key, () -> {
            // the transaction manager logged its decision and commits: Ferry's commit waits for the paused broker
            ServerJvm liberty = ServerJvm.liberty("ferry-remote");
            cluster.pause("broker-0");
            HTTP.post("/tx-app/tx/gate/open", "");
            await().atMost(WAIT).until(() -> liberty.threadDump().contains("ConnectionXaResource.commit"));
            liberty.kill();
            // the broker dies before it reads the commit: only recovery can decide the branch now
            cluster.kill("broker-0");
            cluster.restart("broker-0");
        });
        // the restarted broker registers with the name server and reads its half topic a moment after its start
        await("left undecided by the crash").atMost(WAIT).ignoreExceptions()
                .until(() -> undecided(cluster, dir, key));
        List<String> received = restartAndReceive(cluster, dir, key, true);
        assertThat(received).as("delivered once").containsExactly(key, "after-restart");
        assertThat(rows(key)).isEqualTo(1);
    }

    @Test
    void shouldLeaveNeitherTheRowNorTheMessageOfATransactionKilledBeforeItPrepared(@TempDir Path dir)
            throws Exception {
        String key = "unprepared-" + UUID.randomUUID();
        try (TestCluster cluster = TestCluster.ferry(dir, 1)) {
            createTopicOnTheBroker(cluster);
            killInTheMiddle(cluster, key, () -> ServerJvm.liberty("ferry-remote").kill());
            List<String> received = restartAndReceive(cluster, dir, key, false);
            assertThat(received).containsExactly("after-restart");
            assertThat(rows(key)).isZero();
        } finally {
            stopQuietly();
        }
    }

    /**
     * Creates the topic once the broker has registered with the name server: a cluster's broker registers a moment
     * after its port opens, and a topic created before that is created nowhere (the send then finds no route).
     */
    private static void createTopicOnTheBroker(TestCluster cluster) {
        await().atMost(WAIT).ignoreExceptions().until(() -> cluster.createTopic(TOPIC, 1) == 1);
    }

    /** What the test does while the transaction holds, after its row and its half message are written. */
    private interface Kill {
        void run() throws Exception;
    }

    /** Starts Liberty against the cluster, begins a transaction that holds before its commit, and kills as told. */
    private void killInTheMiddle(TestCluster cluster, String key, Kill kill) throws Exception {
        Files.createDirectories(OVERRIDES);
        // Ferry's commit may wait for the paused broker longer than the test needs to kill the server
        Files.writeString(OVERRIDES.resolve("cluster.xml"), "<server>\n  <variable name=\"ferry.nameServer\" value=\""
                + cluster.nameServerAddress() + "\"/>\n  <connectionFactory id=\"orders\">\n"
                + "    <properties.ferry-ra sendTimeoutMillis=\"120000\"/>\n  </connectionFactory>\n</server>\n",
                StandardCharsets.UTF_8);
        controller.start(CONTAINER);
        deployer.deploy("tx-app");
        HTTP.post("/tx-app/tx/gate/close", "");
        CompletableFuture<String> held = CompletableFuture.supplyAsync(() -> HTTP.post("/tx-app/tx/" + TOPIC + "?key="
                + key + "&outcome=commit&hold=true", ""));
        await().atMost(WAIT).until(() -> HTTP.get("/tx-app/tx/holding").equals("true"));
        kill.run();
        assertThat(held).as("the request died with the server").failsWithin(WAIT);
        killed();
    }

    /** Tells Arquillian's container the server is gone, so that it starts a new one. */
    private void killed() {
        stopQuietly();
    }

    private void stopQuietly() {
        Containers.stopQuietly(controller, CONTAINER);
    }

    /**
     * Starts Liberty again, waits if asked until its recovery delivered {@code key} (the branch it committed), sends
     * one more message and returns what a consumer of the topic got, in order. The test reads no half message while
     * Liberty's producer is back: a reader of the same producer group would take some of the brokers' check-backs
     * (an Apache broker asks one of the group's producers) and leave a copy its check made undecided.
     */
    private List<String> restartAndReceive(TestCluster cluster, Path dir, String key, boolean awaitRecovery)
            throws IOException {
        controller.start(CONTAINER);
        deployer.deploy("tx-app-restarted");
        List<String> received = new CopyOnWriteArrayList<>();
        try (Engine engine = new Engine(cluster.nameServerAddress(), dir)) {
            PushConsumer consumer = engine.client().pushConsumer(PushConsumerConfig.builder("tx-recovery-test")
                    .subscribe(TOPIC, "*").consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).consumeOrderly(true).build(),
                    message -> received.add(message.keys().get(0)));
            // consumed one at a time, in queue order: what "received" holds is the queue's order
            try {
                if (awaitRecovery) {
                    // recovery's commit comes first in the queue, before the message sent next
                    await("recovery's commit").atMost(WAIT).until(() -> received.contains(key));
                }
                HTTP.post("/tx-app-restarted/tx/" + TOPIC + "?key=after-restart&outcome=commit", "");
                // one queue, in order: once the last message is here, every earlier one is too
                await().atMost(WAIT).until(() -> received.contains("after-restart"));
            } finally {
                consumer.close();
            }
        }
        return received;
    }

    /** Whether a half message of {@code key}'s branch waits undecided at the brokers. */
    private static boolean undecided(TestCluster cluster, Path dir, String key) {
        try (Engine engine = new Engine(cluster.nameServerAddress(), dir)) {
            return sameGroup(engine).undecidedHalfMessages(BRANCH).stream()
                    .anyMatch(half -> half.property(MessageProperties.KEYS).filter(key::equals).isPresent());
        }
    }

    /** A producer of the connection factory's group, which may read and end its half messages. */
    private static Producer sameGroup(Engine engine) {
        return engine.client().producer(ProducerConfig.builder(PRODUCER_GROUP).build(),
                message -> TransactionState.UNKNOWN);
    }

    private static int rows(String key) {
        return Integer.parseInt(HTTP.get("/tx-app-restarted/tx/rows/ORDERS?key=" + key));
    }
}
