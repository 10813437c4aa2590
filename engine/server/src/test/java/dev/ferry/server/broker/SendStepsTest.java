package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.DelayLevels;
import dev.ferry.format.ManualClock;
import dev.ferry.format.MessageProperties;
import dev.ferry.format.SysFlags;
import dev.ferry.format.SystemTopics;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.server.timer.TimerRouting;
import dev.ferry.server.timer.TimerSettings;
import dev.ferry.store.MessageToStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each step of the send route on its own. */
class SendStepsTest {
    private static final ManualClock CLOCK = new ManualClock(1_000_000);

    private static SendingMessage message(String topic, int sysFlag, int reconsumeTimes, Integer maxReconsumeTimes,
                                          Map<String, String> pairs) {
        return SendingMessage.of(MessageToStore.builder(topic, 2, "b".getBytes(StandardCharsets.UTF_8))
                .properties(MessageProperties.format(new LinkedHashMap<>(pairs))).sysFlag(sysFlag)
                .reconsumeTimes(reconsumeTimes).build(), maxReconsumeTimes);
    }

    private static SendingMessage message(Map<String, String> pairs) {
        return message("TopicA", 0, 0, null, pairs);
    }

    @Nested
    class DeadLetters {
        @TempDir
        Path dir;

        private final TopicCounters counters = new TopicCounters();

        private DeadLetterStep step() {
            return new DeadLetterStep(new RetryRouting(3, group -> Optional.empty(),
                    new TopicConfigTable(dir, CLOCK, 100), () -> { }), counters);
        }

        @Test
        void shouldLeaveARetryWithinTheLimitInItsRetryTopic() {
            SendStep.Routed routed = step().apply(message(SystemTopics.retryTopic("CG"), 0, 3, null, Map.of()));

            assertThat(routed.last()).isFalse();
            assertThat(routed.message().topic()).isEqualTo(SystemTopics.retryTopic("CG"));
        }

        @Test
        void shouldSendARetryPastTheProducersLimitToTheDeadLetterTopicAndCountIt() {
            SendStep.Routed routed = step().apply(message(SystemTopics.retryTopic("CG"), 0, 2, 1,
                    Map.of(MessageProperties.DELAY, "3", "KEYS", "k")));

            assertThat(routed.last()).isTrue();
            assertThat(routed.message().topic()).isEqualTo(SystemTopics.deadLetterTopic("CG"));
            assertThat(routed.message().queueId()).isZero();
            assertThat(routed.message().properties()).containsOnlyKeys("KEYS");
            assertThat(counters.deadLettered()).containsEntry(SystemTopics.retryTopic("CG") + "@CG", 1L);
        }

        @Test
        void shouldPassAMessageOfAnOrdinaryTopic() {
            SendingMessage plain = message("TopicA", 0, 99, 0, Map.of());

            assertThat(step().apply(plain).message()).isSameAs(plain);
        }
    }

    @Nested
    class TransactionHalves {
        private final AtomicInteger topicsEnsured = new AtomicInteger();

        private TransactionHalfStep step() {
            return new TransactionHalfStep(SendRoute.forWaits(DelayLevels.parse("1s"),
                    new TimerRouting(TimerSettings.defaults(), CLOCK, slot -> 0)), topicsEnsured::incrementAndGet);
        }

        @Test
        void shouldStoreAPreparedMessageInTheHalfTopicWithItsRealTopicAndQueue() {
            SendStep.Routed routed = step().apply(message("TopicA", SysFlags.TRANSACTION_PREPARED_TYPE, 0, null,
                    Map.of()));

            assertThat(routed.last()).isTrue();
            assertThat(routed.message().topic()).isEqualTo(SystemTopics.TRANSACTION_HALF_TOPIC);
            assertThat(SysFlags.transactionType(routed.message().sysFlag())).isEqualTo(SysFlags.TRANSACTION_NOT_TYPE);
            assertThat(routed.message().properties()).containsEntry(MessageProperties.REAL_TOPIC, "TopicA")
                    .containsEntry(MessageProperties.REAL_QUEUE_ID, "2");
            assertThat(topicsEnsured).hasValue(1);
        }

        @Test
        void shouldRefuseNowATimeTheCommitCouldNotTake() {
            SendStep.Routed routed = step().apply(message("TopicA", SysFlags.TRANSACTION_PREPARED_TYPE, 0, null,
                    Map.of(MessageProperties.TIMER_DELAY_SEC, "not a number")));

            assertThat(routed.refused()).isTrue();
            assertThat(routed.refusalCode()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
            assertThat(topicsEnsured).hasValue(0);
        }

        @Test
        void shouldPassAMessageThatIsNotPrepared() {
            SendingMessage plain = message(Map.of());

            assertThat(step().apply(plain).message()).isSameAs(plain);
        }
    }

    @Nested
    class DelayLevelSteps {
        private final DelayLevelStep step = new DelayLevelStep(DelayLevels.parse("1s 5s 10s"));

        @Test
        void shouldParkAMessageWithADelayLevelInThatLevelsQueueOfTheScheduleTopic() {
            SendStep.Routed routed = step.apply(message(Map.of(MessageProperties.DELAY, "2")));

            assertThat(routed.last()).isTrue();
            assertThat(routed.message().topic()).isEqualTo(SystemTopics.SCHEDULE_TOPIC);
            assertThat(routed.message().queueId()).isEqualTo(1);
            assertThat(routed.message().properties()).containsEntry(MessageProperties.REAL_TOPIC, "TopicA")
                    .containsEntry(MessageProperties.REAL_QUEUE_ID, "2");
        }

        @Test
        void shouldClampALevelAboveTheHighestAndDropTheTimerProperties() {
            SendStep.Routed routed = step.apply(message(Map.of(MessageProperties.DELAY, "99",
                    MessageProperties.TIMER_DELIVER_MS, "5")));

            assertThat(routed.message().queueId()).isEqualTo(2);
            assertThat(routed.message().property(MessageProperties.DELAY)).isEqualTo("3");
            assertThat(routed.message().has(MessageProperties.TIMER_DELIVER_MS)).isFalse();
        }

        @Test
        void shouldPassAMessageWithoutAUsableLevel() {
            for (String level : new String[] {"0", "-1", "x", " "}) {
                SendingMessage message = message(Map.of(MessageProperties.DELAY, level));
                assertThat(step.apply(message).message()).as(level).isSameAs(message);
            }
        }
    }

    @Nested
    class TimerSteps {
        private final TimerStep step = new TimerStep(new TimerRouting(TimerSettings.defaults(), CLOCK, slot -> 0));

        @Test
        void shouldHoldAMessageWithATimeInTheFutureInTheTimerTopic() {
            SendStep.Routed routed = step.apply(message(Map.of(MessageProperties.TIMER_DELAY_SEC, "10")));

            assertThat(routed.refused()).isFalse();
            assertThat(routed.message().topic()).isEqualTo(SystemTopics.TIMER_TOPIC);
            assertThat(routed.message().properties()).containsKey(MessageProperties.TIMER_OUT_MS)
                    .containsEntry(MessageProperties.REAL_TOPIC, "TopicA")
                    .containsEntry(MessageProperties.REAL_QUEUE_ID, "2");
        }

        @Test
        void shouldSendADueMessageOnAsItIs() {
            SendingMessage due = message(Map.of(MessageProperties.TIMER_DELIVER_MS, Long.toString(CLOCK.millis())));

            assertThat(step.apply(due).message()).isSameAs(due);
        }

        @Test
        void shouldRefuseATimeWhenTheTimerIsOff() {
            TimerStep off = new TimerStep(new TimerRouting(new TimerSettings(false, 1000, 86_400, 100), CLOCK,
                    slot -> 0));

            SendStep.Routed routed = off.apply(message(Map.of(MessageProperties.TIMER_DELAY_SEC, "10")));

            assertThat(routed.refusalCode()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        }
    }
}
