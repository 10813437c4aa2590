package dev.ferry.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DelayLevelsTest {

    @Test
    void shouldPutAWantedDelayOnTheLowestLevelThatWaitsAtLeastThatLong() {
        DelayLevels levels = DelayLevels.DEFAULT;
        assertThat(levels.levelFor(Duration.ofMillis(1))).isEqualTo(1);
        assertThat(levels.levelFor(Duration.ofSeconds(1))).isEqualTo(1);
        assertThat(levels.levelFor(Duration.ofSeconds(6))).isEqualTo(3);       // 10s
        assertThat(levels.levelFor(Duration.ofMinutes(2))).isEqualTo(6);       // 2m
        assertThat(levels.levelFor(Duration.ofMinutes(11))).isEqualTo(15);     // 20m
    }

    @Test
    void shouldTakeTheHighestLevelForADelayLongerThanAny() {
        assertThat(DelayLevels.DEFAULT.levelFor(Duration.ofDays(1))).isEqualTo(18);
        assertThat(DelayLevels.parse("1s 1s 1s").levelFor(Duration.ofSeconds(5))).isEqualTo(3);
    }

    @Test
    void shouldNameTheKeyOfABadDuration() {
        assertThatThrownBy(() -> DelayLevels.parseDuration("5 minutes", "redeliveryDelay"))
                .hasMessageContaining("redeliveryDelay").hasMessageContaining("5 minutes");
    }
}
