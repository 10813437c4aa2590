package dev.ferry.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Config checks: each names the key, the value and the rule, in the config's own wording. */
class ConfigProblemsTest {
    @Test
    void shouldThrowTheFirstProblemInTheEngineWordingWhenFailingFast() {
        assertThatThrownBy(() -> ConfigProblems.FAIL_FAST.positive("port", 0).positive("other", -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("port = 0: must be positive");
        assertThatThrownBy(() -> ConfigProblems.FAIL_FAST.positive("interval", Duration.ZERO))
                .hasMessage("interval = PT0S: must be a positive duration");
        assertThatThrownBy(() -> ConfigProblems.FAIL_FAST.within("queues", 0, 1, 1024))
                .hasMessage("queues = 0: must be within 1..1024");
        assertThat(ConfigProblems.FAIL_FAST.atLeast("size", 4096, 4096).notBlank("host", "h").isEmpty()).isTrue();
    }

    @Test
    void shouldCollectEveryKeysFirstProblemInOrderAndReportThemTogether() {
        ConfigProblems problems = ConfigProblems.collecting((k, v, r) -> k + " = '" + v + "': " + r);

        problems.notBlank("host", " ").atLeast("size", 10, 4096).add("host", "x", "ignored, host has one")
                .addAlso("size", 10, "must be a power of two");
        problems.parse("mode", "sideways", Mode::valueOf, ConfigProblems.oneOf(Mode.class));

        assertThat(problems.keys()).containsExactly("host", "size", "mode");
        assertThat(problems.joined()).isEqualTo("host = ' ': must not be blank; size = '10': must be >= 4096; "
                + "must be a power of two; mode = 'sideways': must be one of UP, DOWN");
        assertThatThrownBy(problems::throwIfAny).hasMessage(problems.joined());
    }

    @Test
    void shouldReportNothingWhenEveryValueIsGood() {
        ConfigProblems problems = ConfigProblems.collecting(ConfigProblems.KEY_EQUALS_VALUE);

        problems.notNegative("retries", 0).notNegative("wait", Duration.ZERO).require(true, "k", "v", "r");

        assertThat(problems.isEmpty()).isTrue();
        problems.throwIfAny();
    }

    enum Mode { UP, DOWN }
}
