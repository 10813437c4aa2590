package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class FirstOffsetsTest {
    private static final long MEMORY = 1000; // 40% of it, 400 bytes, count as in memory

    /** A queue whose first message starts at {@code firstAt} of a commit log ending at {@code end}. */
    private static FirstOffsets.Queues queue(long minOffset, OptionalLong firstAt, long end) {
        return new FirstOffsets.Queues() {
            @Override
            public long minOffset(String topic, int queueId) {
                return minOffset;
            }

            @Override
            public OptionalLong physicalOffsetOf(String topic, int queueId, long queueOffset) {
                return queueOffset == 0 ? firstAt : OptionalLong.empty();
            }

            @Override
            public long commitLogEndOffset() {
                return end;
            }
        };
    }

    private static OptionalLong start(FirstOffsets.Queues queues, FirstOffsetRule rule, Boolean setZero) {
        return new FirstOffsets(queues, rule).startOf("T", 0, setZero);
    }

    private static final FirstOffsetRule APACHE = new FirstOffsetRule(false, 40, MEMORY);

    @Test
    void shouldStartAtZeroWhenTheQueuesFirstMessageIsWithinTheInMemoryShareOfTheCommitLogsEnd() {
        assertThat(start(queue(0, OptionalLong.of(600), 1000), APACHE, null)).hasValue(0);
        assertThat(start(queue(0, OptionalLong.of(600), 1000), APACHE, true)).hasValue(0);
    }

    @Test
    void shouldGiveNoOffsetWhenTheFirstMessageIsFartherFromTheEndThanTheInMemoryShare() {
        assertThat(start(queue(0, OptionalLong.of(599), 1000), APACHE, null)).isEmpty();
    }

    @Test
    void shouldGiveNoOffsetWhenTheQueuesFirstMessagesWereDeleted() {
        assertThat(start(queue(5, OptionalLong.empty(), 1000), APACHE, null)).isEmpty();
    }

    @Test
    void shouldGiveNoOffsetWhenTheQueueIsEmpty() {
        assertThat(start(queue(0, OptionalLong.empty(), 1000), APACHE, null)).isEmpty();
    }

    @Test
    void shouldGiveNoOffsetWhenTheClientAsksNotToBeSetToZero() {
        assertThat(start(queue(0, OptionalLong.of(900), 1000), APACHE, false)).isEmpty();
    }

    @Test
    void shouldNeverStartAtZeroUnderTheStrictRule() {
        assertThat(start(queue(0, OptionalLong.of(999), 1000), APACHE.withStrict(true), null)).isEmpty();
    }

    @Test
    void shouldCountNothingAsInMemoryWithARatioOfZero() {
        assertThat(start(queue(0, OptionalLong.of(999), 1000), APACHE.withRatio(0), null)).isEmpty();
    }

    @Test
    void shouldRefuseARatioOutsideZeroToHundredNamingApachesKey() {
        assertThatThrownBy(() -> APACHE.withRatio(101)).hasMessageContaining("accessMessageInMemoryMaxRatio = 101");
        assertThatThrownBy(() -> APACHE.withRatio(-1)).hasMessageContaining("0..100");
    }

    @Test
    void shouldDefaultToApachesRuleOnThisHostsMemory() {
        FirstOffsetRule rule = FirstOffsetRule.defaults();
        assertThat(rule.strict()).isFalse();
        assertThat(rule.accessMessageInMemoryMaxRatio()).isEqualTo(40);
        assertThat(rule.physicalMemory()).isPositive();
    }
}
