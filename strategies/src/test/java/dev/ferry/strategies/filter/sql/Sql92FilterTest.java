package dev.ferry.strategies.filter.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.spi.FilterExpressionException;
import dev.ferry.spi.FilterableMessage;
import dev.ferry.spi.MessageFilter;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class Sql92FilterTest {

    private static final FilterableMessage ORDER = FilterableMessage.of(Map.of(
            "TAGS", "paid", "region", "hz", "amount", "250", "vip", "true", "note", "it's"));

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            amount > 100                                   | true
            amount >= 250 AND amount <= 250                | true
            amount BETWEEN 100 AND 300                     | true
            amount NOT BETWEEN 100 AND 300                 | false
            amount > 99.5                                  | true
            amount = 250                                   | true
            amount <> 250                                  | false
            region = 'hz'                                  | true
            region IN ('sh', 'hz')                         | true
            region NOT IN ('sh', 'hz')                     | false
            TAGS = 'paid'                                  | true
            missing IS NULL                                | true
            region IS NOT NULL                             | true
            missing = 'x'                                  | false
            NOT (missing = 'x')                            | false
            missing > 1 OR region = 'hz'                   | true
            region > 1                                     | false
            vip = TRUE                                     | true
            region CONTAINS 'z'                            | true
            region NOT STARTSWITH 'h'                      | false
            note ENDSWITH '''s'                            | true
            missing NOT CONTAINS 'x'                       | false
            not (region = 'sh') and Amount is null         | true
            region = 'hz' -- trailing comment              | true
            /* leading */ region = 'hz'                    | true
            - amount < -249                                | false
            TRUE                                           | true
            """)
    void shouldMatchLikeRocketMq(String selector, boolean expected) {
        MessageFilter filter = new Sql92FilterProvider().compile(selector);

        assertThat(filter.matches(ORDER)).isEqualTo(expected);
    }

    @Test
    void shouldTreatEvaluationErrorsAsNoMatch() {
        MessageFilter filter = new Sql92FilterProvider().compile("region > 5 OR amount = 250");

        // region 'hz' is no number: the whole selector fails for this message, as upstream.
        assertThat(filter.matches(ORDER)).isFalse();
    }

    @Test
    void shouldAlwaysPassThePreCheck() {
        assertThat(new Sql92FilterProvider().compile("a = 1").mayMatchTagsCode(12345)).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            a = 1 AND                  | 9  | expected a literal, a property or '(' but found the end of the expression
            a != 1                     | 2  | unexpected character '!' (use '<>' for not equal)
            a = 'open                  | 4  | unterminated string literal
            a > 'x'                    | 2  | only numbers and properties can be compared with '>'
            a = NULL                   | 2  | NULL cannot be compared with '='; use IS [NOT] NULL
            a BETWEEN 5 AND 1          | 2  | the lower bound of BETWEEN is greater than the upper bound
            1 IN ('a')                 | 2  | IN needs a property on its left
            a = 1 b = 2                | 6  | unexpected 'b' after a complete condition
            1                          | 0  | expected a condition, but the expression starting here yields a value
            a IS 1                     | 5  | expected NULL or NOT NULL after IS but found '1'
            a NOT LIKE 'x'             | 6  | expected CONTAINS, STARTSWITH, ENDSWITH, BETWEEN or IN after NOT, found 'LIKE'
            a = 99999999999999999999   | 4  | integer 99999999999999999999 is out of the long range
            /* open                    | 0  | unterminated comment
            """)
    void shouldRejectMalformedSelectorsNamingThePosition(String selector, int position, String reason) {
        assertThatThrownBy(() -> new Sql92FilterProvider().compile(selector))
                .isInstanceOfSatisfying(FilterExpressionException.class, e -> {
                    assertThat(e.position()).isEqualTo(position);
                    assertThat(e.expression()).isEqualTo(selector);
                })
                .hasMessage("Invalid SQL92 expression at position " + position + ": " + reason + " in '" + selector + "'");
    }

    @Test
    void shouldRefuseOperatorChainsThatCouldOverflowTheStack() {
        String longChain = "a = 1" + " AND a = 1".repeat(2000);

        assertThatThrownBy(() -> new Sql92FilterProvider().compile(longChain))
                .isInstanceOf(FilterExpressionException.class)
                .hasMessageContaining("more than 1000 operators");
        assertThat(new Sql92FilterProvider().compile("a = 1" + " AND a = 1".repeat(400))
                .matches(FilterableMessage.of(Map.of("a", "1")))).isTrue();
    }

    @Test
    void shouldRefuseNestingThatCouldOverflowTheStack() {
        String deep = "(".repeat(5000) + "a = 1" + ")".repeat(5000);

        assertThatThrownBy(() -> new Sql92FilterProvider().compile(deep))
                .isInstanceOf(FilterExpressionException.class)
                .hasMessageContaining("nested deeper than");
    }
}
