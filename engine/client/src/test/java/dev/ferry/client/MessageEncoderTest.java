package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.api.Message;
import dev.ferry.format.MessageProperties;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The properties a message is sent with: the names and values Apache's client writes for the same message. */
class MessageEncoderTest {

    private static Message.Builder message() {
        return Message.builder("Orders").body(new byte[] {1});
    }

    @Test
    void shouldWriteTimerDeliverMsForADeliveryTime() {
        Instant time = Instant.ofEpochMilli(1_796_457_600_123L);

        Map<String, String> properties = MessageEncoder.properties(message().deliverAt(time).build(), "ID");

        assertThat(properties).containsEntry(MessageProperties.TIMER_DELIVER_MS, "1796457600123")
                .doesNotContainKeys(MessageProperties.TIMER_DELAY_MS, MessageProperties.TIMER_DELAY_SEC,
                        MessageProperties.DELAY);
    }

    @Test
    void shouldWriteTimerDelayMsForADelay() {
        Map<String, String> properties = MessageEncoder.properties(
                message().deliverAfter(Duration.ofSeconds(3)).build(), "ID");

        assertThat(properties).containsEntry(MessageProperties.TIMER_DELAY_MS, "3000")
                .doesNotContainKeys(MessageProperties.TIMER_DELIVER_MS, MessageProperties.TIMER_DELAY_SEC,
                        MessageProperties.DELAY);
    }

    @Test
    void shouldRoundAPartMillisecondUpSoThatNothingComesEarly() {
        Map<String, String> timed = MessageEncoder.properties(
                message().deliverAt(Instant.ofEpochSecond(10, 1)).build(), "ID");
        Map<String, String> delayed = MessageEncoder.properties(
                message().deliverAfter(Duration.ofNanos(2_000_001)).build(), "ID");

        assertThat(timed).containsEntry(MessageProperties.TIMER_DELIVER_MS, "10001");
        assertThat(delayed).containsEntry(MessageProperties.TIMER_DELAY_MS, "3");
    }

    @Test
    void shouldWriteAZeroDelay() {
        assertThat(MessageEncoder.properties(message().deliverAfter(Duration.ZERO).build(), "ID"))
                .containsEntry(MessageProperties.TIMER_DELAY_MS, "0");
    }

    @Test
    void shouldWriteNoTimerPropertyForAnUndelayedOrLevelDelayedMessage() {
        assertThat(MessageEncoder.properties(message().build(), "ID"))
                .doesNotContainKeys(MessageProperties.TIMER_DELIVER_MS, MessageProperties.TIMER_DELAY_MS,
                        MessageProperties.DELAY);
        assertThat(MessageEncoder.properties(message().delayLevel(2).build(), "ID"))
                .containsEntry(MessageProperties.DELAY, "2")
                .doesNotContainKeys(MessageProperties.TIMER_DELIVER_MS, MessageProperties.TIMER_DELAY_MS);
    }
}
