package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.remoting.protocol.body.MessageQueueBody;
import dev.ferry.server.MutableClock;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

class QueueLocksTest {
    private static final MessageQueueBody Q0 = new MessageQueueBody("TopicOrder", "broker-a", 0);
    private static final MessageQueueBody Q1 = new MessageQueueBody("TopicOrder", "broker-a", 1);

    private final MutableClock clock = new MutableClock(1_700_000_000_000L);
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
}
