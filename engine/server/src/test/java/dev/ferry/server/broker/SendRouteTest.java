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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SendRouteTest {
    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(1_000_000);

    private SendRoute forSends() {
        TopicConfigTable topics = new TopicConfigTable(dir, clock, 100);
        return SendRoute.forSends(new RetryRouting(1, group -> java.util.Optional.empty(), topics, () -> { }),
                new TopicCounters(), DelayLevels.parse("1s 5s 10s"),
                new TimerRouting(TimerSettings.defaults(), clock, slot -> 0), topics::ensureTransactionTopics);
    }

    private static SendingMessage message(String topic, int sysFlag, int reconsumeTimes, Map<String, String> pairs) {
        return SendingMessage.of(MessageToStore.builder(topic, 2, "b".getBytes(StandardCharsets.UTF_8))
                .properties(MessageProperties.format(new LinkedHashMap<>(pairs))).sysFlag(sysFlag)
                .reconsumeTimes(reconsumeTimes).build());
    }

    @Test
    void shouldApplyDeadLetterTransactionDelayAndTimerInThatOrder() {
        assertThat(forSends().steps()).extracting(step -> step.getClass().getSimpleName())
                .containsExactly("DeadLetterStep", "TransactionHalfStep", "DelayLevelStep", "TimerStep");
    }

    @Test
    void shouldGiveEachStepTheMessageThePreviousOneMadeAndStopAtALastOne() {
        List<String> seen = new ArrayList<>();
        SendRoute route = new SendRoute(List.of(
                message -> {
                    seen.add("first saw " + message.topic());
                    return SendStep.Routed.next(message.to("TopicB", 0));
                },
                message -> {
                    seen.add("second saw " + message.topic());
                    return SendStep.Routed.last(message.to("TopicC", 0));
                },
                message -> {
                    seen.add("third");
                    return SendStep.Routed.next(message);
                }));

        SendStep.Routed routed = route.route(message("TopicA", 0, 0, Map.of()));

        assertThat(seen).containsExactly("first saw TopicA", "second saw TopicB");
        assertThat(routed.message().topic()).isEqualTo("TopicC");
    }

    @Test
    void shouldStopAtTheFirstRefusal() {
        SendRoute route = new SendRoute(List.of(
                message -> SendStep.Routed.refused(ResponseCode.MESSAGE_ILLEGAL, "no"),
                message -> {
                    throw new AssertionError("not reached");
                }));

        SendStep.Routed routed = route.route(message("TopicA", 0, 0, Map.of()));

        assertThat(routed.refused()).isTrue();
        assertThat(routed.refusalCode()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
    }

    @Test
    void shouldSendADeadLetterThereEvenWithADelayLevel() {
        SendStep.Routed routed = forSends().route(message(SystemTopics.retryTopic("CG"), 0, 5,
                Map.of(MessageProperties.DELAY, "2")));

        assertThat(routed.message().topic()).isEqualTo(SystemTopics.deadLetterTopic("CG"));
        assertThat(routed.message().has(MessageProperties.DELAY)).isFalse();
    }

    @Test
    void shouldParkAPreparedMessageWithADelayLevelInTheHalfTopicNotTheScheduleTopic() {
        SendStep.Routed routed = forSends().route(message("TopicA", SysFlags.TRANSACTION_PREPARED_TYPE, 0,
                Map.of(MessageProperties.DELAY, "2")));

        assertThat(routed.message().topic()).isEqualTo(SystemTopics.TRANSACTION_HALF_TOPIC);
        assertThat(routed.message().property(MessageProperties.DELAY)).as("kept for the commit").isEqualTo("2");
    }

    @Test
    void shouldLetADelayLevelWinOverATime() {
        SendStep.Routed routed = forSends().route(message("TopicA", 0, 0, Map.of(MessageProperties.DELAY, "1",
                MessageProperties.TIMER_DELAY_SEC, "30")));

        assertThat(routed.message().topic()).isEqualTo(SystemTopics.SCHEDULE_TOPIC);
    }

    @Test
    void shouldLeaveAPlainMessageAsItCame() {
        SendingMessage plain = message("TopicA", 0, 0, Map.of("KEYS", "k"));

        SendStep.Routed routed = forSends().route(plain);

        assertThat(routed.refused()).isFalse();
        assertThat(routed.message().toStore()).isSameAs(plain.toStore());
    }
}
