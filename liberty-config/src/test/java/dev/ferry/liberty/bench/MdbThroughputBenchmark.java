package dev.ferry.liberty.bench;

import dev.ferry.liberty.apps.ProbeApplication;
import dev.ferry.liberty.bench.apps.FerryBatchBenchMdb;
import dev.ferry.liberty.bench.apps.FerryBenchMdb;
import dev.ferry.liberty.bench.apps.JmsBenchMdb;
import dev.ferry.liberty.bench.apps.JmsLoadResource;
import dev.ferry.liberty.bench.apps.Throughput;
import dev.ferry.liberty.bench.apps.ThroughputResource;
import dev.ferry.liberty.support.Engine;
import dev.ferry.liberty.support.Directories;
import dev.ferry.liberty.support.Http;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
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
 * MDB consumption throughput on one Open Liberty server: an empty bean on Ferry's adapter (embedded engine)
 * against an empty JMS bean on Liberty's built-in messaging engine (wasJmsServer), 1 KiB messages, at most 16
 * deliveries at once each. Each round loads the backlog first (Ferry: a producer outside the server; JMS: a
 * resource inside it), then deploys the bean and times its first to its last delivery. A warm-up round of each
 * runs first. Not part of the test suite: {@code -Pmdb-bench} runs it (see docs/benchmarks.md); it checks only
 * that every message was delivered, and prints and writes the figures.
 */
@ExtendWith(ArquillianExtension.class)
class MdbThroughputBenchmark {
    private static final String CONTAINER = "liberty-bench";
    private static final int MESSAGES = Integer.getInteger("bench.messages", 200_000);
    private static final Http HTTP = new Http(19480);
    private static final Path SERVER = Path.of("target/liberty/wlp/usr/servers/ferry-bench");

    @ArquillianResource
    private ContainerController controller;

    @ArquillianResource
    private Deployer deployer;

    @TempDir
    Path directory;

    @Deployment(name = "bench-ferry-warmup", managed = false, testable = false)
    @TargetsContainer(CONTAINER)
    static WebArchive ferryWarmup() {
        return ferryApp("bench-ferry-warmup");
    }

    @Deployment(name = "bench-ferry", managed = false, testable = false)
    @TargetsContainer(CONTAINER)
    static WebArchive ferry() {
        return ferryApp("bench-ferry");
    }

    @Deployment(name = "bench-ferry-batch-warmup", managed = false, testable = false)
    @TargetsContainer(CONTAINER)
    static WebArchive ferryBatchWarmup() {
        return ferryBatchApp("bench-ferry-batch-warmup");
    }

    @Deployment(name = "bench-ferry-batch", managed = false, testable = false)
    @TargetsContainer(CONTAINER)
    static WebArchive ferryBatch() {
        return ferryBatchApp("bench-ferry-batch");
    }

    @Deployment(name = "bench-jms", managed = false, testable = false)
    @TargetsContainer(CONTAINER)
    static WebArchive jms() {
        return ShrinkWrap.create(WebArchive.class, "bench-jms.war")
                .addClasses(ProbeApplication.class, ThroughputResource.class, Throughput.class,
                        Throughput.Figures.class, JmsBenchMdb.class);
    }

    @Deployment(name = "bench-loader", managed = false, testable = false)
    @TargetsContainer(CONTAINER)
    static WebArchive loader() {
        return ShrinkWrap.create(WebArchive.class, "bench-loader.war")
                .addClasses(ProbeApplication.class, JmsLoadResource.class);
    }

    private static WebArchive ferryApp(String name) {
        return ShrinkWrap.create(WebArchive.class, name + ".war")
                .addClasses(ProbeApplication.class, ThroughputResource.class, Throughput.class,
                        Throughput.Figures.class, FerryBenchMdb.class);
    }

    private static WebArchive ferryBatchApp(String name) {
        return ShrinkWrap.create(WebArchive.class, name + ".war")
                .addClasses(ProbeApplication.class, ThroughputResource.class, Throughput.class,
                        Throughput.Figures.class, FerryBatchBenchMdb.class);
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.MINUTES)
    void measureMdbThroughputOfFerryAgainstLibertysMessagingEngine() throws IOException {
        Directories.deleteRecursively(SERVER.resolve("ferry-data"));
        Directories.deleteRecursively(SERVER.resolve("messaging"));
        List<String> rows = new ArrayList<>();
        controller.start(CONTAINER);
        BenchRounds rounds = new BenchRounds(deployer, HTTP);
        try (Engine engine = new Engine("127.0.0.1:20176", directory)) {
            rounds.ferry(engine, "bench-ferry-warmup", MESSAGES / 4);
            rounds.ferry(engine, "bench-ferry-batch-warmup", MESSAGES / 4);
            rounds.jms("bench-jms", MESSAGES / 4, true);
            double ferry = rounds.ferry(engine, "bench-ferry", MESSAGES);
            double ferryBatch = rounds.ferry(engine, "bench-ferry-batch", MESSAGES);
            double jmsPersistent = rounds.jms("bench-jms", MESSAGES, true);
            double jmsNonPersistent = rounds.jms("bench-jms", MESSAGES, false);
            rows.add(String.format(Locale.ROOT, "messages per round: %,d of 1 KiB; maxConcurrency 16; empty beans",
                    MESSAGES));
            rows.add(String.format(Locale.ROOT, "Ferry adapter (embedded engine):        %,10.0f msg/s", ferry));
            rows.add(String.format(Locale.ROOT, "Ferry adapter, batch bean (32 a call):  %,10.0f msg/s   "
                    + "batch/single %.2f", ferryBatch, ferryBatch / ferry));
            rows.add(String.format(Locale.ROOT, "Liberty JMS, persistent messages:       %,10.0f msg/s   Ferry/JMS %.2f",
                    jmsPersistent, ferry / jmsPersistent));
            rows.add(String.format(Locale.ROOT, "Liberty JMS, non-persistent messages:   %,10.0f msg/s   Ferry/JMS %.2f",
                    jmsNonPersistent, ferry / jmsNonPersistent));
        } finally {
            controller.stop(CONTAINER);
        }
        String report = String.join(System.lineSeparator(), rows);
        System.out.println(report);
        Files.writeString(Path.of("target/mdb-benchmark.txt"), report + System.lineSeparator(),
                StandardCharsets.UTF_8);
    }
}
