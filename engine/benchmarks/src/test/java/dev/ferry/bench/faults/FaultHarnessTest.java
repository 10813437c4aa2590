package dev.ferry.bench.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.bench.faults.FaultFigures.GroupFigures;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The harness's short run in the suite: two minutes of faults of a fixed seed against Ferry's cluster, Apache's and
 * Ferry's clients, every promise checked (docs/reliability.md). A failure's message holds the report; the run's logs
 * and histories stay in the temporary directory.
 */
@Tag("integration")
class FaultHarnessTest {
    /**
     * Chosen among the first seeds for what its two minutes hold: every kind of fault; the SYNC_MASTER killed, its HA
     * link stalled one way, its slave partitioned; the other master paused and cut from clients; every disk full;
     * brokers cut from a name server and slowed to both; a name server and a consumer killed.
     */
    private static final long SEED = 6;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void shouldKeepEveryPromiseOfFerrysBrokersThroughTwoMinutesOfSeededFaults() throws Exception {
        FaultHarness harness = new FaultHarness();
        harness.seed = SEED;
        harness.minutes = 2;
        harness.brokers = List.of("ferry");
        harness.workDir = dir;
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        Map<String, FaultFigures> results = harness.output(new PrintStream(log, true, StandardCharsets.UTF_8))
                .runAll();
        FaultFigures ferry = results.get("ferry");
        String report = log.toString(StandardCharsets.UTF_8) + FaultHarness.report(results);
        System.out.println(report); // the build's output keeps every run's figures

        SoftAssertions softly = new SoftAssertions();
        softly.assertThat(ferry.totalFaults()).as(report).isGreaterThanOrEqualTo(FaultPlan.Kind.values().length);
        softly.assertThat(ferry.ok()).as("acknowledged sends").isGreaterThan(3_000);
        for (Map.Entry<String, GroupFigures> group : ferry.groups().entrySet()) {
            GroupFigures figures = group.getValue();
            String name = group.getKey();
            softly.assertThat(figures.expected()).as(name + " expected").isGreaterThan(500);
            softly.assertThat(figures.lost()).as(name + " lost: " + figures.lostKeys() + report).isZero();
            softly.assertThat(figures.unexpected()).as(name + " unexpected").isZero();
            softly.assertThat(figures.failedDelivered()).as(name + " delivered though the send failed").isZero();
            softly.assertThat(figures.rolledBack()).as(name + " delivered though rolled back").isZero();
            softly.assertThat(figures.early()).as(name + " delivered early").isZero();
            softly.assertThat(figures.outOfOrder()).as(name + " out of order").isZero();
        }
        softly.assertThat(ferry.unrecovered()).as("faults after which sends or receipts never resumed" + report)
                .isZero();
        softly.assertAll();
    }
}
