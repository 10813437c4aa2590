package dev.ferry.liberty.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ferry.api.Message;
import dev.ferry.client.cluster.TestCluster;
import dev.ferry.liberty.apps.OnceAllowance;
import dev.ferry.liberty.apps.OnceBatchMdb;
import dev.ferry.liberty.apps.OnceMdb;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.ContainerController;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.TargetsContainer;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly-once processing with the jdbc offset store: a bean inserts one row per message, in the transaction that
 * also moves the group's offset in the same database. Two consumers share the group, one leaves mid-stream (its
 * queues move to the other), and Liberty is SIGKILLed mid-stream three times and started again: in the end every
 * message has exactly one row, and after every step the rows are exactly the messages the beans were allowed.
 */
@ExtendWith(ArquillianExtension.class)
class ExactlyOnceTest {
    private static final String CONTAINER = "liberty-remote";
    private static final Http HTTP = new Http(19280);
    private static final Path OVERRIDES = Path.of("target/liberty/wlp/usr/servers/ferry-remote/configDropins/overrides");
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final int MESSAGES = 600;

    @ArquillianResource
    private ContainerController controller;

    @ArquillianResource
    private Deployer deployer;

    private static WebArchive onceApp(String name) {
        return TestApps.probeApp(name, OnceMdb.class, OnceAllowance.class, TxService.class, TxResource.class);
    }

    private static WebArchive onceBatchApp(String name) {
        return TestApps.probeApp(name, OnceBatchMdb.class, OnceAllowance.class, TxService.class, TxResource.class);
    }

    @Deployment(name = "once-batch-a", managed = false, testable = false)
    @TargetsContainer(CONTAINER)
    static WebArchive onceBatchA() {
        return onceBatchApp("once-batch-a");
    }

    @Deployment(name = "once-batch-b", managed = false, testable = false)
    @TargetsContainer(CONTAINER)
    static WebArchive onceBatchB() {
        return onceBatchApp("once-batch-b");
    }

    // once-a stays deployed through the kills: a restarted server starts it again from its configuration
    @Deployment(name = "once-a", managed = false, testable = false)
    @TargetsContainer(CONTAINER)
    static WebArchive onceA() {
        return onceApp("once-a");
    }

    @Deployment(name = "once-b", managed = false, testable = false)
    @TargetsContainer(CONTAINER)
    static WebArchive onceB() {
        return onceApp("once-b");
    }

    /*
     * The beans process only the messages the test allows (OnceAllowance), so every step ends at a known number of
     * rows, with the beans waiting inside transactions that have claimed their next offsets; the kills land there.
     * A restarted server processes nothing before it is allowed to, so the test sees each restart's starting point.
     */
    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES) // four server starts
    void shouldProcessEveryMessageExactlyOnceThroughARebalanceAndThreeKills(@TempDir Path dir) throws Exception {
        processEachMessageOnceThroughARebalanceAndThreeKills(dir, OnceMdb.TOPIC, "once-a", "once-b");
    }

    /** The same with a batch bean: each batch one transaction, its rows and offsets committed together. */
    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void shouldProcessEveryMessageExactlyOnceInBatchesThroughARebalanceAndThreeKills(@TempDir Path dir)
            throws Exception {
        processEachMessageOnceThroughARebalanceAndThreeKills(dir, OnceBatchMdb.TOPIC, "once-batch-a",
                "once-batch-b");
    }

    private void processEachMessageOnceThroughARebalanceAndThreeKills(Path dir, String topic, String first,
                                                                      String second) throws Exception {
        String run = "once-" + UUID.randomUUID().toString().substring(0, 8) + "-";
        try (TestCluster cluster = TestCluster.ferry(dir, 1)) {
            // once the broker has registered: a topic created before that is created nowhere
            await().atMost(WAIT).ignoreExceptions().until(() -> cluster.createTopic(topic, 4) == 1);
            try (Engine engine = new Engine(cluster.nameServerAddress(), dir)) {
                for (int i = 0; i < MESSAGES; i++) {
                    engine.producer().send(Message.builder(topic)
                            .body((run + i).getBytes(StandardCharsets.UTF_8)).build());
                }
            }
            Files.createDirectories(OVERRIDES);
            Files.writeString(OVERRIDES.resolve("cluster.xml"), "<server>\n  <variable name=\"ferry.nameServer\" "
                    + "value=\"" + cluster.nameServerAddress() + "\"/>\n</server>\n", StandardCharsets.UTF_8);

            // two consumers of the group, each allowed 60 messages; then one leaves, and the other takes its
            // queues over (one of them possibly with a claimed, undecided message of the one that left)
            controller.start(CONTAINER);
            deployer.deploy(first);
            deployer.deploy(second);
            allow(first, 60);
            allow(second, 60);
            awaitExactly(first, run, 120);
            deployer.undeploy(second);
            allow(first, 80);
            awaitExactly(first, run, 200);
            kill();
            // three restarts: each starts from the rows committed before its kill, with nothing lost or doubled
            int rows = 200;
            for (int allowed : List.of(100, 100)) {
                controller.start(CONTAINER);
                assertThat(answeredRows(first, run)).as("rows after a restart").isEqualTo(rows);
                allow(first, allowed);
                rows += allowed;
                awaitExactly(first, run, rows);
                kill();
            }
            controller.start(CONTAINER);
            assertThat(answeredRows(first, run)).as("rows after the last restart").isEqualTo(rows);
            allow(first, MESSAGES - rows);
            awaitExactly(first, run, MESSAGES);
            Map<String, Integer> perMessage = new HashMap<>();
            rows(first, run).forEach(id -> perMessage.merge(id, 1, Integer::sum));
            assertThat(perMessage).as("one row per message").hasSize(MESSAGES)
                    .allSatisfy((id, count) -> assertThat(count).as(id).isEqualTo(1));
        } finally {
            // the killed servers never undeployed it: it would start again with the next tests' servers
            undeployQuietly(first);
            stopQuietly();
        }
    }

    private static void allow(String app, int messages) {
        HTTP.post("/" + app + "/tx/allow?messages=" + messages, "");
    }

    /** The number of rows of this run, once the restarted server's once-a answers. */
    private static int answeredRows(String app, String run) {
        return await().atMost(WAIT).ignoreExceptions().until(() -> rows(app, run).size(), count -> true);
    }

    /**
     * Waits until this run has {@code expected} rows, each message once: the beans may not commit more than they were
     * allowed, so more rows, or fewer distinct ones, mean a message was processed twice.
     */
    private static void awaitExactly(String app, String run, int expected) {
        List<String> seen = new ArrayList<>();
        try {
            await().atMost(WAIT).ignoreExceptions().until(() -> {
                seen.clear();
                seen.addAll(rows(app, run));
                return seen.size() >= expected;
            });
        } catch (RuntimeException e) {
            // what the server's threads were doing when the stream stalled
            try {
                Files.writeString(Path.of("target/exactly-once-threads.txt"), ServerJvm.liberty("ferry-remote")
                        .threadDump());
            } catch (IOException | RuntimeException dump) {
                e.addSuppressed(dump);
            }
            throw e;
        }
        assertThat(seen).as("rows of the run").hasSize(expected).doesNotHaveDuplicates();
    }

    /** The rows of this run, duplicates included, read through {@code app}. */
    private static List<String> rows(String app, String run) {
        List<String> ids = new ArrayList<>();
        for (JsonNode id : HTTP.getJson("/" + app + "/tx/ids/DELIVERIES?prefix=" + run)) {
            ids.add(id.asText());
        }
        return ids;
    }

    /** SIGKILL to the server, then tells Arquillian's container it is gone. */
    private void kill() {
        ServerJvm.liberty("ferry-remote").kill();
        stopQuietly();
    }

    private void undeployQuietly(String app) {
        try {
            deployer.undeploy(app);
        } catch (Exception e) {
            // not deployed (the test failed before it was), or its archive already gone with a killed server's
            // deployments; either way nothing is left to undeploy, and the test's own outcome must not be masked
        }
    }

    private void stopQuietly() {
        Containers.stopQuietly(controller, CONTAINER);
    }
}
