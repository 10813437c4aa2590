package dev.ferry.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A message's delivery time and delay: kept, copied, shown, and refused when they conflict or make no sense. */
class MessageDeliveryTimeTest {
    private static final Instant TIME = Instant.parse("2026-12-05T08:00:00.250Z");

    private static Message.Builder message() {
        return Message.builder("Orders").body(new byte[] {1});
    }

    @Test
    void shouldKeepADeliveryTime() {
        Message message = message().deliverAt(TIME).build();

        assertThat(message.deliveryTime()).contains(TIME);
        assertThat(message.deliveryDelay()).isEmpty();
        assertThat(message.delayLevel()).isZero();
        assertThat(message.isDelayed()).isTrue();
    }

    @Test
    void shouldKeepADelay() {
        Message message = message().deliverAfter(Duration.ofSeconds(3)).build();

        assertThat(message.deliveryDelay()).contains(Duration.ofSeconds(3));
        assertThat(message.deliveryTime()).isEmpty();
        assertThat(message.isDelayed()).isTrue();
    }

    @Test
    void shouldBeUndelayedWhenNothingIsSet() {
        Message message = message().build();

        assertThat(message.deliveryTime()).isEmpty();
        assertThat(message.deliveryDelay()).isEmpty();
        assertThat(message.isDelayed()).isFalse();
        assertThat(message().delayLevel(3).build().isDelayed()).isTrue();
    }

    @Test
    void shouldAcceptAZeroDelayAndAPastTime() {
        assertThat(message().deliverAfter(Duration.ZERO).build().deliveryDelay()).contains(Duration.ZERO);
        assertThat(message().deliverAt(Instant.EPOCH).build().deliveryTime()).contains(Instant.EPOCH);
    }

    @Test
    void shouldCopyTheDeliveryTimeAndDelayIntoABuilder() {
        Message timed = message().deliverAt(TIME).build();
        Message delayed = message().deliverAfter(Duration.ofMinutes(5)).build();

        assertThat(timed.toBuilder().property("a", "b").build().deliveryTime()).contains(TIME);
        assertThat(delayed.toBuilder().property("a", "b").build().deliveryDelay()).contains(Duration.ofMinutes(5));
    }

    @Test
    void shouldShowTheDeliveryTimeOrDelayInToString() {
        assertThat(message().deliverAt(TIME).build().toString()).contains("deliveryTime=" + TIME)
                .doesNotContain("deliveryDelay");
        assertThat(message().deliverAfter(Duration.ofSeconds(3)).build().toString()).contains("deliveryDelay=PT3S")
                .doesNotContain("deliveryTime");
        assertThat(message().build().toString()).doesNotContain("deliveryTime").doesNotContain("deliveryDelay");
    }

    @Test
    void shouldRefuseADelayLevelWithADeliveryTimeNamingBoth() {
        assertThatThrownBy(() -> message().delayLevel(3).deliverAt(TIME).build())
                .isInstanceOf(InvalidMessageException.class)
                .hasMessageContaining("delayLevel 3 and deliverAt " + TIME)
                .hasMessageContaining("at most one of delayLevel, deliverAt and deliverAfter");
    }

    @Test
    void shouldRefuseADelayLevelWithADelay() {
        assertThatThrownBy(() -> message().deliverAfter(Duration.ofSeconds(1)).delayLevel(2).build())
                .isInstanceOf(InvalidMessageException.class)
                .hasMessageContaining("delayLevel 2 and deliverAfter PT1S");
    }

    @Test
    void shouldRefuseADeliveryTimeWithADelay() {
        assertThatThrownBy(() -> message().deliverAt(TIME).deliverAfter(Duration.ofSeconds(1)).build())
                .isInstanceOf(InvalidMessageException.class)
                .hasMessageContaining("deliverAt " + TIME + " and deliverAfter PT1S");
    }

    @Test
    void shouldRefuseADelayLevelAddedToACopyOfADelayedMessage() {
        Message delayed = message().deliverAfter(Duration.ofSeconds(1)).build();

        assertThatThrownBy(() -> delayed.toBuilder().delayLevel(1).build())
                .isInstanceOf(InvalidMessageException.class).hasMessageContaining("delayLevel 1 and deliverAfter");
    }

    @Test
    void shouldRefuseANegativeDelay() {
        assertThatThrownBy(() -> message().deliverAfter(Duration.ofMillis(-1)).build())
                .isInstanceOf(InvalidMessageException.class)
                .hasMessageContaining("deliverAfter PT-0.001S of a message to 'Orders' is negative");
    }

    @Test
    void shouldRefuseADelayOrTimeThatDoesNotFitInMilliseconds() {
        assertThatThrownBy(() -> message().deliverAfter(Duration.ofSeconds(Long.MAX_VALUE)).build())
                .isInstanceOf(InvalidMessageException.class).hasMessageContaining("does not fit in milliseconds");
        assertThatThrownBy(() -> message().deliverAt(Instant.MAX).build())
                .isInstanceOf(InvalidMessageException.class).hasMessageContaining("is not a time in epoch milliseconds");
        assertThatThrownBy(() -> message().deliverAt(Instant.EPOCH.minusMillis(1)).build())
                .isInstanceOf(InvalidMessageException.class).hasMessageContaining("is not a time in epoch milliseconds");
    }

    @Test
    void shouldRefuseNullTimesAndDelays() {
        assertThatThrownBy(() -> message().deliverAt(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("time");
        assertThatThrownBy(() -> message().deliverAfter(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("delay");
    }

    @Test
    void shouldTellToUseTheBuilderForTimerProperties() {
        assertThatThrownBy(() -> message().property("TIMER_DELAY_MS", "1000").build())
                .isInstanceOf(InvalidMessageException.class).hasMessageContaining("deliverAfter");
    }
}
