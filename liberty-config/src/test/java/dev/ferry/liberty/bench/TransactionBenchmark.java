package dev.ferry.liberty.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.liberty.apps.ProbeApplication;
import dev.ferry.liberty.bench.apps.FerryBenchMdb;
import dev.ferry.liberty.bench.apps.FerryBenchNoTxMdb;
import dev.ferry.liberty.bench.apps.JmsBenchMdb;
import dev.ferry.liberty.bench.apps.JmsBenchNoTxMdb;
import dev.ferry.liberty.bench.apps.JmsLoadResource;
import dev.ferry.liberty.bench.apps.Throughput;
import dev.ferry.liberty.bench.apps.ThroughputResource;
import dev.ferry.liberty.bench.apps.TxSendResource;
import dev.ferry.liberty.bench.apps.TxSendWork;
import dev.ferry.liberty.support.Directories;
import dev.ferry.liberty.support.Engine;
import dev.ferry.liberty.support.Http;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.jboss.arquillian.container.test.api.ContainerController;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.TargetsContainer;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transactions on one Open Liberty server, Ferry's adapter (embedded engine) beside Liberty's built-in messaging
 * engine. Sends: each transaction inserts a row of an embedded Derby database (XA) and sends one 1 KiB message in the
 * same XA transaction, four requests at once, rounds of each system alternating after a warm-up; then each part alone
 * in its transaction (Ferry's send, Liberty's JMS send, Derby's insert), to tell each system's own cost from the
 * two-phase commit both pay. Deliveries: empty beans draining a backlog, delivered in the container's transaction
 * (REQUIRED) or outside any (NOT_SUPPORTED), at most 16 at once. Not part of the test suite: {@code -Pmdb-bench} runs
 * it (see docs/benchmarks.md); it checks only that every transaction and message went through, and prints and writes
 * the figures.
 */
@ExtendWith(ArquillianExtension.class)
class TransactionBenchmark {
    private static final String CONTAINER = "liberty-bench";
    private static final Http HTTP = new Http(19480);
    private static final Path SERVER = Path.of("target/liberty/wlp/usr/servers/ferry-bench");
    private static final int TRANSACTIONS = Integer.getInteger("bench.transactions", 2_000);
    private static final int MESSAGES = Integer.getInteger("bench.txMessages", 50_000);
    private static final int CLIENTS = 4;
    private static final int ROUNDS = 3;

    @ArquillianResource
    private ContainerController controller;

    @ArquillianResource
    private Deployer deployer;

    @TempDir
    Path directory;

    @Deployment(name = "bench-tx", managed = false, testable = false)
    @TargetsContainer(CONTAINER)
    static WebArchive sends() {
        return ShrinkWrap.create(WebArchive.class, "bench-tx.war")
                .addClasses(ProbeApplication.class, TxSendResource.class, TxSendWork.class);
    }

    @Deployment(name = "bench-loader", managed = false, testable = false)
    @TargetsContainer(CONTAINER)
    static WebArchive loader() {
        return ShrinkWrap.create(WebArchive.class, "bench-loader.war")
                .addClasses(ProbeApplication.class, JmsLoadResource.class);
    }

    // Each archive name is deployed once: its server.xml declaration goes with its first undeployment.
    @Deployment(name = "bench-ferry-warmup", managed = false, testable = false)
    @TargetsContainer(CONTAINER)
    static WebArchive ferryWarmup() {
        return beans("bench-ferry-warmup", FerryBenchMdb.class);
    }

    @Deployment(name = "bench-jms", managed = false, testable = false)
    @TargetsContainer(CONTAINER)
    static WebArchive jmsWarmup() {
        return beans("bench-jms", JmsBenchMdb.class);
    }

    @Deployment(name = "bench-ferry-required", managed = false, testable = false)
    @TargetsContainer(CONTAINER)
    static WebArchive ferryRequired() {
        return beans("bench-ferry-required", FerryBenchMdb.class);
    }

    @Deployment(name = "bench-ferry-notx", managed = false, testable = false)
    @TargetsContainer(CONTAINER)
    static WebArchive ferryNotSupported() {
        return beans("bench-ferry-notx", FerryBenchNoTxMdb.class);
    }

    @Deployment(name = "bench-jms-required", managed = false, testable = false)
    @TargetsContainer(CONTAINER)
    static WebArchive jmsRequired() {
        return beans("bench-jms-required", JmsBenchMdb.class);
    }

    @Deployment(name = "bench-jms-notx", managed = false, testable = false)
    @TargetsContainer(CONTAINER)
    static WebArchive jmsNotSupported() {
        return beans("bench-jms-notx", JmsBenchNoTxMdb.class);
    }

    private static WebArchive beans(String name, Class<?> bean) {
        return ShrinkWrap.create(WebArchive.class, name + ".war").addClasses(ProbeApplication.class,
                ThroughputResource.class, Throughput.class, Throughput.Figures.class, bean);
    }

    @Test
    @Timeout(value = 40, unit = TimeUnit.MINUTES)
    void measureTransactionsOfFerryAgainstLibertysMessagingEngine() throws IOException {
        Directories.deleteRecursively(SERVER.resolve("ferry-data"));
        Directories.deleteRecursively(SERVER.resolve("messaging"));
        Directories.deleteRecursively(SERVER.resolve("benchdb"));
        List<String> rows = new ArrayList<>();
        controller.start(CONTAINER);
        try (Engine engine = new Engine("127.0.0.1:20176", directory)) {
            deployer.deploy("bench-tx");
            // a full round of each first: the server's compilers are still busy after the first few thousand
            sends("ferry", TRANSACTIONS);
            sends("jms", TRANSACTIONS);
            double[] ferry = new double[ROUNDS];
            double[] jms = new double[ROUNDS];
            for (int round = 0; round < ROUNDS; round++) {
                ferry[round] = sends("ferry", TRANSACTIONS);
                jms[round] = sends("jms", TRANSACTIONS);
            }
            rows.add(String.format(Locale.ROOT, "XA transactions (Derby row + one 1 KiB send), %,d per round, %d "
                    + "clients, %d rounds alternating", TRANSACTIONS, CLIENTS, ROUNDS));
            for (int round = 0; round < ROUNDS; round++) {
                rows.add(String.format(Locale.ROOT, "  round %d: Ferry %,8.0f tx/s   Liberty JMS %,8.0f tx/s   "
                        + "Ferry/JMS %.2f", round + 1, ferry[round], jms[round], ferry[round] / jms[round]));
            }
            rows.add(String.format(Locale.ROOT, "  mean:    Ferry %,8.0f tx/s   Liberty JMS %,8.0f tx/s   "
                    + "Ferry/JMS %.2f", mean(ferry), mean(jms), mean(ferry) / mean(jms)));
            // each part alone in its transaction (committed in one phase): what each system's own part costs
            String[] parts = {"ferry-only", "jms-only", "derby-only"};
            double[][] alone = new double[parts.length][ROUNDS];
            for (String part : parts) {
                sends(part, TRANSACTIONS / 4);
            }
            for (int round = 0; round < ROUNDS; round++) {
                for (int part = 0; part < parts.length; part++) {
                    alone[part][round] = sends(parts[part], TRANSACTIONS);
                }
            }
            rows.add(String.format(Locale.ROOT, "Each part alone in its transaction (one resource, one-phase commit), "
                    + "mean of %d rounds; time per transaction as each client sees it", ROUNDS));
            for (int part = 0; part < parts.length; part++) {
                rows.add(String.format(Locale.ROOT, "  %-10s %,8.0f tx/s   %.3f ms", parts[part], mean(alone[part]),
                        CLIENTS * 1000 / mean(alone[part])));
            }
            rows.add(String.format(Locale.ROOT, "  both parts in two phases: Ferry %.3f ms   Liberty JMS %.3f ms",
                    CLIENTS * 1000 / mean(ferry), CLIENTS * 1000 / mean(jms)));
            deployer.undeploy("bench-tx");

            BenchRounds rounds = new BenchRounds(deployer, HTTP);
            rounds.ferry(engine, "bench-ferry-warmup", MESSAGES / 5);
            rounds.jms("bench-jms", MESSAGES / 5, true);
            double ferryRequired = rounds.ferry(engine, "bench-ferry-required", MESSAGES);
            double ferryNotSupported = rounds.ferry(engine, "bench-ferry-notx", MESSAGES);
            double jmsRequired = rounds.jms("bench-jms-required", MESSAGES, true);
            double jmsNotSupported = rounds.jms("bench-jms-notx", MESSAGES, true);
            rows.add(String.format(Locale.ROOT, "MDB deliveries, %,d persistent 1 KiB messages per round, maxConcurrency"
                    + " 16, empty beans", MESSAGES));
            rows.add(String.format(Locale.ROOT, "  Ferry:       REQUIRED %,8.0f msg/s   NOT_SUPPORTED %,8.0f msg/s   "
                    + "REQUIRED/NOT_SUPPORTED %.2f", ferryRequired, ferryNotSupported,
                    ferryRequired / ferryNotSupported));
            rows.add(String.format(Locale.ROOT, "  Liberty JMS: REQUIRED %,8.0f msg/s   NOT_SUPPORTED %,8.0f msg/s   "
                    + "REQUIRED/NOT_SUPPORTED %.2f", jmsRequired, jmsNotSupported, jmsRequired / jmsNotSupported));
            rows.add(String.format(Locale.ROOT, "  Ferry/JMS:   REQUIRED %.2f   NOT_SUPPORTED %.2f",
                    ferryRequired / jmsRequired, ferryNotSupported / jmsNotSupported));
        } finally {
            controller.stop(CONTAINER);
        }
        String report = String.join(System.lineSeparator(), rows);
        System.out.println(report);
        Files.writeString(Path.of("target/transaction-benchmark.txt"), report + System.lineSeparator(),
                StandardCharsets.UTF_8);
    }

    /** {@code count} transactions of {@code system} from {@link #CLIENTS} requests at once; transactions per second. */
    private static double sends(String system, int count) {
        int each = count / CLIENTS;
        long start = System.nanoTime();
        List<CompletableFuture<String>> clients = IntStream.range(0, CLIENTS).mapToObj(i -> CompletableFuture
                .supplyAsync(() -> HTTP.post("/bench-tx/txsend/" + system + "?count=" + each, ""))).toList();
        clients.forEach(client -> assertThat(Long.parseLong(client.join())).isPositive());
        return each * CLIENTS / ((System.nanoTime() - start) / 1e9);
    }

    private static double mean(double[] values) {
        double sum = 0;
        for (double value : values) {
            sum += value;
        }
        return sum / values.length;
    }
}
