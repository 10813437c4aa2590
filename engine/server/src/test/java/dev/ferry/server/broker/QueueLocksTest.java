package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.ManualClock;
import dev.ferry.remoting.protocol.body.MessageQueueBody;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

class QueueLocksTest {
    private static final MessageQueueBody Q0 = new MessageQueueBody("TopicOrder", "broker-a", 0);
    private static final MessageQueueBody Q1 = new MessageQueueBody("TopicOrder", "broker-a", 1);

    private final ManualClock clock = new ManualClock(1_700_000_000_000L);
    private final QueueLocks locks = new QueueLocks(clock);

    @Test
    void shouldGiveEachQueueToOneClientOfAGroupAtATime() {
        assertThat(locks.lock("G", "a", Set.of(Q0))).containsExactly(Q0);
        assertThat(locks.lock("G", "b", Set.of(Q0, Q1))).containsExactly(Q1);
        assertThat(locks.lock("G", "a", Set.of(Q0, Q1))).as("renewal of its own, not b's").containsExactly(Q0);
        assertThat(locks.lock("OTHER", "c", Set.of(Q0))).as("groups lock independently").containsExactly(Q0);
        assertThat(locks.isLockedBy("G", Q0, "a")).isTrue();
        assertThat(locks.isLockedBy("G", Q1, "b")).isTrue();
    }

    @Test
    void shouldFreeAQueueWhenItsOwnerUnlocksItButNotWhenAnotherClientTries() {
        locks.lock("G", "a", Set.of(Q0));
        locks.unlock("G", "b", Set.of(Q0));
        assertThat(locks.lock("G", "b", Set.of(Q0))).isEmpty();
        locks.unlock("G", "a", Set.of(Q0));
        assertThat(locks.lock("G", "b", Set.of(Q0))).containsExactly(Q0);
    }

    @Test
    void shouldLetALockExpireSixtySecondsAfterItsLastRenewal() {
        locks.lock("G", "a", Set.of(Q0));
        clock.advance(Duration.ofSeconds(50));
        locks.lock("G", "a", Set.of(Q0)); // renewed
        clock.advance(Duration.ofSeconds(59));
        assertThat(locks.lock("G", "b", Set.of(Q0))).isEmpty();
        clock.advance(Duration.ofSeconds(1));
        assertThat(locks.isLockedBy("G", Q0, "a")).isFalse();
        assertThat(locks.lock("G", "b", Set.of(Q0))).containsExactly(Q0);
    }

    @Test
    void shouldForgetExpiredLocksOfAGroupWhenItLocksAgain() {
        QueueLocks table = new QueueLocks(clock);
        Set<MessageQueueBody> many = new java.util.HashSet<>();
        for (int i = 0; i < 100; i++) {
            many.add(new MessageQueueBody("T", "broker-a", i));
        }
        table.lock("G", "a", many);
        clock.advance(Duration.ofSeconds(61));
        table.lock("G", "b", Set.of(new MessageQueueBody("T", "broker-a", 0)));
        assertThat(table.size("G")).isEqualTo(1);
    }

    @Test
    void shouldLeaveOutQueuesBeyondTheBoundOverAllGroupsAndLockThemOnceOthersExpire() {
        QueueLocks table = new QueueLocks(clock, 3);
        table.lock("G", "a", "c1", Set.of(Q0, Q1));

        QueueLocks.Granted other = table.lock("OTHER", "b", "c2", Set.of(Q0, Q1));

        assertThat(other.locked()).hasSize(1);
        assertThat(other.refused()).isEqualTo(1);
        assertThat(table.lock("G", "a", "c1", Set.of(Q0, Q1)).locked()).as("renewals need no room")
                .containsExactlyInAnyOrder(Q0, Q1);
        assertThat(table.size()).isEqualTo(3);
        assertThat(table.refused()).isEqualTo(1);
        clock.advance(QueueLocks.EXPIRY);
        assertThat(table.lock("OTHER", "b", "c2", Set.of(Q0, Q1)).locked()).containsExactlyInAnyOrder(Q0, Q1);
        assertThat(table.size()).as("G's expired locks dropped by OTHER's call").isEqualTo(2);
    }

    @Test
    void shouldDropExpiredLocksOfEveryGroupWhicheverGroupLocksNext() {
        QueueLocks table = new QueueLocks(clock, 1_000);
        for (int g = 0; g < 10; g++) {
            table.lock("G" + g, "a", "c1", Set.of(Q0, Q1));
        }
        clock.advance(Duration.ofSeconds(30));
        table.lock("G0", "a", "c1", Set.of(Q0)); // renewed: kept
        clock.advance(Duration.ofSeconds(30));

        table.lock("NEW", "b", "c2", Set.of(Q0));

        assertThat(table.size()).isEqualTo(2);
        assertThat(table.isLockedBy("G0", Q0, "a")).isTrue();
        assertThat(table.isLockedBy("G1", Q0, "a")).isFalse();
    }

    @Test
    void shouldFreeTheLocksTakenOverAConnectionWhenItCloses() {
        QueueLocks table = new QueueLocks(clock, 1_000);
        table.lock("G", "a", "c1", Set.of(Q0, Q1));
        table.lock("OTHER", "a", "c1", Set.of(Q0));
        table.lock("G2", "z", "c9", Set.of(Q0));

        table.connectionClosed("c1");

        assertThat(table.size()).isEqualTo(1);
        assertThat(table.lock("G", "b", "c2", Set.of(Q0, Q1)).locked()).as("at once, not after a minute")
                .containsExactlyInAnyOrder(Q0, Q1);
        assertThat(table.isLockedBy("G2", Q0, "z")).as("another connection's lock stays").isTrue();
    }

    @Test
    void shouldKeepALockRenewedOverANewConnectionWhenTheOldOneCloses() {
        QueueLocks table = new QueueLocks(clock, 1_000);
        table.lock("G", "a", "old", Set.of(Q0));
        table.lock("G", "a", "new", Set.of(Q0)); // the client reconnected and renewed

        table.connectionClosed("old");

        assertThat(table.isLockedBy("G", Q0, "a")).isTrue();
        table.connectionClosed("new");
        assertThat(table.isLockedBy("G", Q0, "a")).isFalse();
        assertThat(table.size()).isZero();
    }
}
