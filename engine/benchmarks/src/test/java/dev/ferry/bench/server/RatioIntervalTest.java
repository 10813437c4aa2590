package dev.ferry.bench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class RatioIntervalTest {
    @Test
    void shouldGiveTheGeometricMeanAndStudentsIntervalOverTheLogarithms() {
        // Logarithms 0, 0.1, 0.2: mean 0.1, standard deviation 0.1, t(2) = 4.303.
        RatioInterval interval = RatioInterval.of(new double[] {1, Math.exp(0.1), Math.exp(0.2)});

        double half = 4.303 * 0.1 / Math.sqrt(3);
        assertThat(interval.mean()).isCloseTo(Math.exp(0.1), within(1e-12));
        assertThat(interval.low()).isCloseTo(Math.exp(0.1 - half), within(1e-12));
        assertThat(interval.high()).isCloseTo(Math.exp(0.1 + half), within(1e-12));
        assertThat(interval.count()).isEqualTo(3);
    }

    @Test
    void shouldNarrowAsCyclesAgree() {
        double[] spread = {0.85, 0.95, 0.88, 0.92};
        double[] twiceAsMany = {0.85, 0.95, 0.88, 0.92, 0.85, 0.95, 0.88, 0.92};

        RatioInterval few = RatioInterval.of(spread);
        RatioInterval many = RatioInterval.of(twiceAsMany);

        assertThat(many.mean()).isCloseTo(few.mean(), within(1e-12));
        assertThat(many.high() - many.low()).isLessThan((few.high() - few.low()) / 2);
    }

    @Test
    void shouldDecideATargetOnlyWhenTheWholeIntervalIsOnOneSide() {
        assertThat(RatioInterval.of(new double[] {0.95, 0.96, 0.94, 0.95}).atLeast(0.9)).isEqualTo("met");
        assertThat(RatioInterval.of(new double[] {0.80, 0.81, 0.79, 0.80}).atLeast(0.9)).isEqualTo("NOT met");
        assertThat(RatioInterval.of(new double[] {0.80, 1.00, 0.85, 0.97}).atLeast(0.9)).isEqualTo("undecided");
    }

    @Test
    void shouldLeaveOneCycleUndecided() {
        RatioInterval one = RatioInterval.of(new double[] {0.95});

        assertThat(one.mean()).isCloseTo(0.95, within(1e-12));
        assertThat(one.atLeast(0.9)).isEqualTo("undecided");
    }

    @Test
    void shouldDividePairedRatiosCycleByCycle() {
        assertThat(RatioInterval.quotients(new double[] {0.9, 0.8}, new double[] {0.6, 0.4}))
                .containsExactly(1.5, 2.0);
        assertThatThrownBy(() -> RatioInterval.quotients(new double[] {0.9}, new double[] {0.6, 0.4}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unpaired");
    }

    @Test
    void shouldRefuseRatiosThatAreNotPositive() {
        assertThatThrownBy(() -> RatioInterval.of(new double[] {0.9, 0})).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RatioInterval.of(new double[] {Double.NaN}))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RatioInterval.of(new double[0])).isInstanceOf(IllegalArgumentException.class);
    }
}
