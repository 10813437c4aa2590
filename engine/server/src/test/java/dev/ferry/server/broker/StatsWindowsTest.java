package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class StatsWindowsTest {

    @Test
    void shouldForgetTheWindowsOfADeletedGroupAtOnceAndKeepTheOthers() {
        StatsWindows windows = new StatsWindows(10);
        windows.roll(Map.of("T@G", 5L, "T@G2", 7L, "U@G", 1L));

        windows.forget(key -> key.endsWith("@G"));

        assertThat(windows.size()).isEqualTo(1);
        assertThat(windows.of("T@G")).isEmpty();
        assertThat(windows.of("T@G2")).hasValueSatisfying(data -> assertThat(data.statsMinute().sum())
                .isEqualTo(7));
    }
}
