package dev.ferry.liberty.remote;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.bench.faults.FaultFigures;
import dev.ferry.bench.faults.FaultFigures.GroupFigures;
import dev.ferry.bench.faults.FaultHarness;
import dev.ferry.liberty.apps.FaultOnceMdb;
import dev.ferry.liberty.support.LibertyOnceConsumer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exactly-once path under the fault harness (docs/reliability.md): Liberty runs the adapter in remote mode with a
 * bean that inserts one row per message of the harness's ordered topic, its group's offsets in the same database
 * ({@link FaultOnceMdb}), while two minutes of seeded faults hit Ferry's cluster and the harness's producers and
 * consumers run beside it. Every acknowledged message must have exactly one row, in order per order key, and the
 * harness's other promises must hold.
 */
class ExactlyOnceUnderFaultsTest {
    /**
     * Chosen for what its two minutes hold with a Liberty consumer: Liberty killed and started again, the SYNC_MASTER
     * killed, the other master paused, the brokers partitioned from the name servers, full disks.
     */
    private static final long SEED = 2;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    @Timeout(value = 15, unit = TimeUnit.MINUTES)
    void shouldCommitEveryAcknowledgedMessageExactlyOnceThroughTwoMinutesOfSeededFaults() throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        FaultHarness harness = new FaultHarness().seed(SEED).minutes(2).brokers("ferry").consumers(1).workDir(dir)
                .externalConsumer(new LibertyOnceConsumer())
                .output(new PrintStream(log, true, StandardCharsets.UTF_8));
        Map<String, FaultFigures> results = harness.runAll();
        String report = log.toString(StandardCharsets.UTF_8) + FaultHarness.report(results);
        System.out.println(report); // the build's output keeps every run's figures
        FaultFigures ferry = results.get("ferry");
        GroupFigures once = ferry.groups().get(FaultOnceMdb.GROUP);

        assertThat(report).as("the plan kills Liberty").containsPattern("CONSUMER_KILL +liberty");
        assertThat(ferry.consumerRecovery()).as("Liberty consumes again after its restart").containsKey("liberty");
        SoftAssertions softly = new SoftAssertions();
        softly.assertThat(once.expected()).as("acknowledged messages of the ordered topic").isGreaterThan(1_000);
        softly.assertThat(once.lost()).as("lost: " + once.lostKeys() + report).isZero();
        softly.assertThat(once.duplicates()).as("committed twice").isZero();
        softly.assertThat(once.unexpected() + once.failedDelivered()).as("never sent, or surely failed").isZero();
        softly.assertThat(once.outOfOrder()).as("out of order").isZero();
        softly.assertThat(ferry.violated()).as("any group's promise broken").isFalse();
        softly.assertThat(ferry.unrecovered()).as("faults without recovery").isZero();
        softly.assertAll();
    }
}
