package dev.ferry.strategies.filter.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.ferry.spi.FilterExpressionException;
import dev.ferry.spi.FilterableMessage;
import dev.ferry.spi.MessageFilter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.rocketmq.filter.FilterFactory;
import org.apache.rocketmq.filter.FilterSpi;
import org.apache.rocketmq.filter.expression.EvaluationContext;
import org.apache.rocketmq.filter.expression.Expression;
import org.apache.rocketmq.filter.expression.MQFilterException;
import org.junit.jupiter.api.Test;

/**
 * Ferry's SQL92 filter against Apache RocketMQ 5.3.3's {@code rocketmq-filter} on a generated corpus:
 * the same selectors compile, and every compiled selector gives the same outcome (TRUE, FALSE, unknown or
 * error, so also the same match) on the same properties.
 */
class ApacheSql92OracleTest {

    private static final FilterSpi APACHE = FilterFactory.INSTANCE.get("SQL92");

    private enum Outcome { TRUE, FALSE, UNKNOWN, ERROR }

    @Test
    void shouldEvaluateGeneratedSelectorsLikeApache() {
        SqlCorpus corpus = new SqlCorpus(20261130L);
        int compiled = 0;
        int rejected = 0;
        int matched = 0;
        for (int i = 0; i < 4000; i++) {
            String selector = corpus.condition(3);
            Optional<Expression> apache = apacheCompile(selector);
            Optional<SqlExpression> ferry = ferryCompile(selector);
            assertThat(ferry.isPresent()).as("Ferry accepts %s (Apache: %s)", selector, apache.isPresent())
                    .isEqualTo(apache.isPresent());
            if (apache.isEmpty()) {
                rejected++;
                continue;
            }
            compiled++;
            for (int j = 0; j < 8; j++) {
                Map<String, String> properties = corpus.properties();
                Outcome expected = apacheOutcome(apache.get(), properties);
                assertThat(ferryOutcome(ferry.get(), properties)).as("%s on %s", selector, properties)
                        .isEqualTo(expected);
                assertThat(new Sql92FilterProvider().compile(selector).matches(FilterableMessage.of(properties)))
                        .isEqualTo(expected == Outcome.TRUE);
                matched += expected == Outcome.TRUE ? 1 : 0;
            }
        }
        // The corpus must exercise both sides, or the comparison proves little.
        assertThat(compiled).isGreaterThan(1500);
        assertThat(rejected).isGreaterThan(200);
        assertThat(matched).isGreaterThan(1000);
    }

    @Test
    void shouldRejectTheMalformedSelectorsApacheRejects() {
        SqlCorpus corpus = new SqlCorpus(7L);
        int bothRejected = 0;
        List<String> ferryOnly = new ArrayList<>();
        for (int i = 0; i < 4000; i++) {
            String selector = corpus.malformed(corpus.condition(2));
            Optional<Expression> apache = apacheCompile(selector);
            Optional<SqlExpression> ferry = ferryCompile(selector);
            if (apache.isEmpty()) {
                assertThat(ferry).as("Ferry rejects %s as Apache does", selector).isEmpty();
                bothRejected++;
            } else if (ferry.isEmpty()) {
                assertOnlyTrailingInputDiffers(selector, apache.get());
                ferryOnly.add(selector);
            }
        }
        assertThat(bothRejected).isGreaterThan(1000);
        assertThat(ferryOnly).isNotEmpty();
    }

    @Test
    void shouldDifferFromApacheOnlyWhereDocumented() {
        // Apache stops at the first token that cannot continue the selector and ignores the rest.
        assertThat(apacheCompile("a = 1 garbage = 2")).isPresent();
        assertThat(ferryCompile("a = 1 garbage = 2")).isEmpty();
        // Apache rejects a float literal of exactly zero ("less than Double.MIN_VALUE").
        assertThat(apacheCompile("a > 0.0")).isEmpty();
        assertThat(ferryCompile("a > 0.0")).isPresent();
    }

    /** Apache accepted, Ferry did not: that must be only because Apache ignored input after a complete selector. */
    private static void assertOnlyTrailingInputDiffers(String selector, Expression apacheFull) {
        for (int end = selector.length() - 1; end > 0; end--) {
            String prefix = selector.substring(0, end);
            Optional<Expression> apachePrefix = apacheCompile(prefix);
            if (ferryCompile(prefix).isPresent() && apachePrefix.isPresent()
                    && apachePrefix.get().toString().equals(apacheFull.toString())) {
                return;
            }
        }
        fail("Apache accepts '%s' as %s but Ferry rejects it, and not for trailing input", selector, apacheFull);
    }

    private static Optional<Expression> apacheCompile(String selector) {
        try {
            return Optional.of(APACHE.compile(selector));
        } catch (MQFilterException e) {
            return Optional.empty();
        }
    }

    private static Optional<SqlExpression> ferryCompile(String selector) {
        try {
            return Optional.of(SqlParser.parse(selector));
        } catch (FilterExpressionException e) {
            return Optional.empty();
        }
    }

    private static Outcome apacheOutcome(Expression expression, Map<String, String> properties) {
        try {
            return outcome(expression.evaluate(new PropertiesContext(properties)));
        } catch (Exception e) {
            return Outcome.ERROR;
        }
    }

    private static Outcome ferryOutcome(SqlExpression expression, Map<String, String> properties) {
        try {
            return outcome(expression.evaluate(properties::get));
        } catch (SqlEvaluationException e) {
            return Outcome.ERROR;
        }
    }

    private static Outcome outcome(Object value) {
        if (value == null) {
            return Outcome.UNKNOWN;
        }
        return Boolean.TRUE.equals(value) ? Outcome.TRUE : Outcome.FALSE;
    }

    /** What Apache's broker hands the selector: the message's properties by name. */
    private record PropertiesContext(Map<String, String> properties) implements EvaluationContext {
        @Override
        public Object get(String name) {
            return properties.get(name);
        }

        @Override
        public Map<String, Object> keyValues() {
            return Map.copyOf(properties);
        }
    }
}
