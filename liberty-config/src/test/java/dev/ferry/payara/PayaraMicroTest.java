package dev.ferry.payara;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ferry.client.ConsumeFromWhere;
import dev.ferry.client.PushConsumer;
import dev.ferry.client.PushConsumerConfig;
import dev.ferry.format.ChildJvm;
import dev.ferry.liberty.apps.FactoryResource;
import dev.ferry.liberty.apps.TxMdb;
import dev.ferry.liberty.apps.TxResource;
import dev.ferry.liberty.apps.TxService;
import dev.ferry.liberty.apps.UnknownPluginMdb;
import dev.ferry.liberty.support.Directories;
import dev.ferry.liberty.support.Engine;
import dev.ferry.liberty.support.Http;
import dev.ferry.liberty.support.ManagementView;
import dev.ferry.liberty.support.OrderRoundTrip;
import dev.ferry.liberty.support.TestApps;
import dev.ferry.liberty.support.TxRoundTrip;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same ferry-ra.rar and order-app.war on Payara Micro 6, configured by the boot command files in
 * {@code src/main/payara} (with the test's own ports and a plugin directory): a message goes round, an
 * application's own {@code @ConnectionFactoryDefinition} works as it does on Liberty, and a bean naming a strategy
 * that is nowhere is refused with the names the plugin directory offers; the engine and each activation show as JMX
 * beans there as on Liberty. The boot files define no order database, so order-app's transactional orders answer 503.
 */
class PayaraMicroTest {
    private static final int HTTP_PORT = 19380;
    private static final Path TARGET = Path.of("target").toAbsolutePath();
    private static final Path RUN_DIR = TARGET.resolve("payara-run");
    private static final String NAME_SERVER = "127.0.0.1:20076";
    private static Process payara;

    @BeforeAll
    static void startPayaraMicro() throws IOException {
        Directories.deleteRecursively(RUN_DIR);
        Files.createDirectories(RUN_DIR);
        Files.copy(TARGET.resolve("test-apps/ferry-ra.rar"), RUN_DIR.resolve("ferry-ra.rar"),
                StandardCopyOption.REPLACE_EXISTING);
        Files.copy(TARGET.resolve("test-apps/order-app.war"), RUN_DIR.resolve("order-app.war"),
                StandardCopyOption.REPLACE_EXISTING);
        // An application defining its own factory with @ConnectionFactoryDefinition, as on Liberty.
        TestApps.probeApp("factory-app", FactoryResource.class).as(ZipExporter.class)
                .exportTo(RUN_DIR.resolve("factory-app.war").toFile(), true);
        // A bean naming a strategy that neither the adapter nor its plugin directory has (the beans that use the
        // plugin directory's strategy and filter run under Arquillian: PayaraPluginDirTest). Payara refuses a whole
        // application when one of its beans cannot be activated: this one is alone in its own.
        TestApps.probeApp("unknown-plugin-app", UnknownPluginMdb.class)
                .as(ZipExporter.class).exportTo(RUN_DIR.resolve("unknown-plugin-app.war").toFile(), true);
        // Transactions: a row of an embedded Derby database (XA) and Ferry in one JTA transaction.
        TestApps.probeApp("tx-app", TxResource.class, TxService.class, TxMdb.class).as(ZipExporter.class)
                .exportTo(RUN_DIR.resolve("tx-app.war").toFile(), true);
        Files.copy(Path.of("src/main/payara/preboot.txt"), RUN_DIR.resolve("preboot.txt"));
        // The documented post-boot commands, on ports of the test's own, with a plugin directory.
        String postboot = Files.readString(Path.of("src/main/payara/postboot.txt"), StandardCharsets.UTF_8)
                .replace("NamesrvPort=9876", "NamesrvPort=20076").replace("BrokerPort=10911", "BrokerPort=20111")
                .replace("StoreDir=ferry-data", "StoreDir=ferry-data:PluginDir=" + TARGET.resolve("payara/plugins")
                        // redeliveries a second apart, as on Liberty (common.xml), not the broker's 10 s and 30 s
                        + ":MessageDelayLevel=\"" + "1s ".repeat(17) + "1s\"");
        assertThat(postboot).contains("NamesrvPort=20076", "BrokerPort=20111", "PluginDir=");
        postboot += "create-jdbc-connection-pool --datasourceclassname org.apache.derby.jdbc.EmbeddedXADataSource"
                + " --restype javax.sql.XADataSource --property databaseName=" + RUN_DIR.resolve("txdb")
                + ":createDatabase=create txdb-pool\n"
                + "create-jdbc-resource --connectionpoolid txdb-pool jdbc/txdb\n";
        Files.writeString(RUN_DIR.resolve("postboot.txt"), postboot, StandardCharsets.UTF_8);

        List<String> command = new ArrayList<>(ChildJvm.launcher("512m"));
        command.addAll(List.of("-Djava.io.tmpdir=" + RUN_DIR.resolve("tmp"),
                "-jar", TARGET.resolve("payara/payara-micro.jar").toString(),
                "--nohazelcast", "--disablephonehome", "--port", Integer.toString(HTTP_PORT),
                "--rootdir", RUN_DIR.resolve("root").toString(),
                "--prebootcommandfile", "preboot.txt", "--postbootcommandfile", "postboot.txt",
                "--addLibs", Stream.of("derby", "derbyshared", "derbytools")
                        .map(jar -> TARGET.resolve("payara/jdbc/" + jar + ".jar").toString())
                        .collect(Collectors.joining(":")),
                "--deploy", "order-app.war", "--deploy", "factory-app.war", "--deploy", "unknown-plugin-app.war",
                "--deploy", "tx-app.war"));
        Files.createDirectories(RUN_DIR.resolve("tmp"));
        payara = new ProcessBuilder(command).directory(RUN_DIR.toFile()).redirectErrorStream(true)
                .redirectOutput(RUN_DIR.resolve("payara.log").toFile()).start();
        Http http = new Http(HTTP_PORT);
        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1)).until(() -> {
            assertThat(payara.isAlive()).as("Payara Micro ended; see %s", RUN_DIR.resolve("payara.log")).isTrue();
            try {
                http.get("/order-app/orders/received");
                return true;
            } catch (RuntimeException notYet) {
                return false;
            }
        });
    }

    @AfterAll
    static void stopPayaraMicro() throws InterruptedException {
        if (payara != null) {
            payara.destroy(); // SIGTERM: Payara stops its applications and the adapter, which persists the store
            if (!payara.waitFor(60, TimeUnit.SECONDS)) {
                payara.destroyForcibly();
            }
        }
    }

    @Test
    void shouldSendThroughAConnectionFactoryTheApplicationDefined(@TempDir Path offsets) {
        String msgId = new Http(HTTP_PORT).post("/factory-app/factory/payara-own-factory", "defined on Payara");
        List<String> received = new CopyOnWriteArrayList<>();
        try (Engine engine = new Engine("127.0.0.1:20076", offsets)) {
            PushConsumer consumer = engine.client().pushConsumer(PushConsumerConfig.builder("payara-factory-test")
                    .subscribe("payara-own-factory", "*").consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).build(),
                    m -> received.add(m.msgId() + " " + new String(m.body(), StandardCharsets.UTF_8)));
            try {
                await().atMost(Duration.ofSeconds(60)).until(() -> !received.isEmpty());
            } finally {
                consumer.close();
            }
        }
        assertThat(received).containsExactly(msgId + " defined on Payara");
    }

    @Test
    void shouldRunTheSameAdapterAndOrderAppOnPayaraMicro() throws IOException {
        OrderRoundTrip.verify(new Http(HTTP_PORT), "order-app");
        // The embedded engine runs with the post-boot file's settings, and the factory's producer group.
        assertThat(Files.readString(RUN_DIR.resolve("payara.log")))
                .contains("FERRY-RA-0001 started in embedded mode: name server 127.0.0.1:20076, broker port 20111")
                .contains("FERRY-RA-0302 connection factory producer order-app started");
    }

    @Test
    void shouldAnswerTransactionalOrdersWith503WhenTheServerHasNoOrderDatabase() {
        // The boot files define no jdbc/orders: order-app deploys and its other endpoints work (above).
        Http http = new Http(HTTP_PORT);
        Http.Answer post = http.postAnswer("/order-app/orders/transactional?outcome=commit", "{\"item\":\"lamp\"}");
        Http.Answer rows = http.getAnswer("/order-app/orders/transactional");
        assertThat(post.status()).isEqualTo(503);
        assertThat(post.body()).isEqualTo("this server has no data source jdbc/orders for transactional orders\n");
        assertThat(rows.status()).isEqualTo(503);
        assertThat(rows.body()).isEqualTo(post.body());
    }

    @Test
    void shouldRefuseAnUnknownStrategyNamingThePropertyAndThePluginsFound() throws IOException {
        await().atMost(Duration.ofSeconds(60)).until(() -> log().contains("no-such-strategy"));
        String refusal = log().lines().filter(line -> line.contains("allocateStrategy = 'no-such-strategy'"))
                .findFirst().orElseThrow();
        assertThat(refusal).contains("FERRY-RA-0201", "no allocate strategy plugin of that name; found: ",
                "averagely", "queue-id-modulo");
    }

    @Test
    void shouldShowTheEngineAndTheBeansActivationAsJmxBeansOnPayara() {
        Http http = new Http(HTTP_PORT);
        OrderRoundTrip.verify(http, "order-app");
        // Read from inside Payara by an application (factory-app's probe), as a JMX console attached to it would.
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            ManagementView view = ManagementView.read(http, "factory-app");
            JsonNode activation = view.activation("order-app").orElseThrow();
            assertThat(activation.get("Topic").asText()).isEqualTo("orders");
            assertThat(activation.get("Consuming").asBoolean()).isTrue();
            assertThat(activation.get("Delivered").asLong()).isPositive();
            assertThat(activation.get("NameServerReachable").asBoolean()).isTrue();
            JsonNode engine = view.engine().orElseThrow();
            assertThat(engine.get("NameServerAddress").asText()).isEqualTo(NAME_SERVER);
            assertThat(engine.get("MessagesIn").asLong()).isPositive();
            assertThat(engine.get("ConsumerGroups").asInt()).isPositive();
        });
    }

    @Test
    void shouldDeliverASendWithItsRowOnCommitAndLeaveNeitherOnRollbackOnPayara(@TempDir Path offsets) {
        TxRoundTrip.commitAndRollback(new Http(HTTP_PORT), "tx-app", NAME_SERVER, offsets);
    }

    @Test
    void shouldDeliverAgainWhatABeansTransactionRolledBackOnPayara(@TempDir Path offsets) {
        TxRoundTrip.rolledBackDelivery(new Http(HTTP_PORT), "tx-app", NAME_SERVER, offsets);
    }

    private static String log() throws IOException {
        return Files.readString(RUN_DIR.resolve("payara.log"), StandardCharsets.ISO_8859_1);
    }
}
