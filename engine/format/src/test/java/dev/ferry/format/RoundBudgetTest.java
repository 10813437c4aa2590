package dev.ferry.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RoundBudgetTest {
    private final String given = System.getProperty("ferry.tests.budget");

    @AfterEach
    void restore() {
        if (given == null) {
            System.clearProperty("ferry.tests.budget");
        } else {
            System.setProperty("ferry.tests.budget", given);
        }
    }

    @Test
    void shouldRunTheShortRoundsUnlessTheLongBudgetIsGiven() {
        System.clearProperty("ferry.tests.budget");
        assertThat(RoundBudget.rounds(6, 20)).isEqualTo(6);
        System.setProperty("ferry.tests.budget", "short");
        assertThat(RoundBudget.rounds(6, 20)).isEqualTo(6);
        System.setProperty("ferry.tests.budget", " LONG ");
        assertThat(RoundBudget.rounds(6, 20)).isEqualTo(20);
    }

    @Test
    void shouldRefuseABudgetItDoesNotKnow() {
        System.setProperty("ferry.tests.budget", "forever");
        assertThatThrownBy(RoundBudget::current).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ferry.tests.budget must be short or long, not 'forever'");
    }
}
