package dev.ferry.server.replica;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.ManualClock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A SYNC_MASTER's sends wait for the first report of a connected slave that covers them, and no longer than they
 * may; a slave that went away counts no more.
 */
class ReplicaAcksTest {
    private final ManualClock clock = new ManualClock();
    private final ReplicaAcks acks = new ReplicaAcks(Duration.ofSeconds(5), 1_000, clock);
    private final Object slaveA = new Object();
    private final Object slaveB = new Object();

    @Test
    void shouldAnswerSlaveNotAvailableAtOnceUntilASlaveReported() {
        assertThat(acks.replicated(100, 100)).isCompletedWithValue(ReplicaOutcome.SLAVE_NOT_AVAILABLE);
        acks.acknowledged(slaveA, 0);
        assertThat(acks.slaves()).isEqualTo(1);
        assertThat(acks.replicated(100, 100)).isNotDone();
    }

    @Test
    void shouldReleaseASendOnceASlaveReportedPastIt() {
        acks.acknowledged(slaveA, 0);
        CompletableFuture<ReplicaOutcome> first = acks.replicated(100, 100);
        CompletableFuture<ReplicaOutcome> second = acks.replicated(200, 200);
        acks.acknowledged(slaveA, 99);
        assertThat(first).isNotDone();
        acks.acknowledged(slaveA, 150);
        assertThat(first).isCompletedWithValue(ReplicaOutcome.REPLICATED);
        assertThat(second).isNotDone();
        acks.acknowledged(slaveA, 120); // an older report changes nothing
        assertThat(acks.acknowledged()).isEqualTo(150);
        assertThat(acks.replicated(140, 200)).as("already covered").isCompletedWithValue(ReplicaOutcome.REPLICATED);
        acks.acknowledged(slaveA, 200);
        assertThat(second).isCompletedWithValue(ReplicaOutcome.REPLICATED);
    }

    @Test
    void shouldForgetWhatASlaveThatWentAwayReported() {
        acks.acknowledged(slaveA, 200);
        acks.acknowledged(slaveB, 100);
        acks.slaveGone(slaveA);
        assertThat(acks.acknowledged()).isEqualTo(100);
        CompletableFuture<ReplicaOutcome> waiting = acks.replicated(150, 200);
        assertThat(waiting).as("slave A had it, but slave A is gone").isNotDone();
        acks.acknowledged(slaveB, 150);
        assertThat(waiting).isCompletedWithValue(ReplicaOutcome.REPLICATED);
    }

    @Test
    void shouldTimeOutASendNoReportCoversInTime() {
        acks.acknowledged(slaveA, 0);
        CompletableFuture<ReplicaOutcome> waiting = acks.replicated(100, 100);
        clock.advance(Duration.ofSeconds(5).minusNanos(1));
        acks.expireOverdue();
        assertThat(waiting).isNotDone();
        clock.advance(Duration.ofNanos(1));
        acks.expireOverdue();
        assertThat(waiting).isCompletedWithValue(ReplicaOutcome.TIMED_OUT);
    }

    @Test
    void shouldNotWaitForASlaveTooFarBehindNorAfterTheLastSlaveLeft() {
        acks.acknowledged(slaveA, 0);
        assertThat(acks.replicated(1_500, 1_500)).as("1,500 bytes behind, more than the gap allowed")
                .isCompletedWithValue(ReplicaOutcome.SLAVE_NOT_AVAILABLE);
        CompletableFuture<ReplicaOutcome> waiting = acks.replicated(500, 500);
        acks.slaveGone(slaveA);
        assertThat(waiting).isCompletedWithValue(ReplicaOutcome.SLAVE_NOT_AVAILABLE);
        assertThat(acks.slaves()).isZero();
    }
}
