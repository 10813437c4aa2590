package dev.ferry.strategies.filter.sql;

import dev.ferry.spi.ExpressionType;
import dev.ferry.spi.FilterableMessage;
import dev.ferry.spi.MessageFilter;
import java.util.Map;

/**
 * A compiled SQL92 selector over message properties, evaluated like RocketMQ's {@code rocketmq-filter}:
 * a message is selected only when the selector is TRUE; unknown (a missing property) or an evaluation
 * error (a property that is not the number it is compared with) rejects it.
 */
final class Sql92Filter implements MessageFilter {

    private final String expression;
    private final SqlExpression selector;

    Sql92Filter(String expression, SqlExpression selector) {
        this.expression = expression;
        this.selector = selector;
    }

    @Override
    public String expressionType() {
        return ExpressionType.SQL92;
    }

    @Override
    public String expression() {
        return expression;
    }

    @Override
    public boolean mayMatchTagsCode(long tagsCode) {
        // A selector may test anything; only the message itself can tell.
        return true;
    }

    @Override
    public boolean matches(FilterableMessage message) {
        Map<String, String> properties = message.properties();
        try {
            return Boolean.TRUE.equals(selector.evaluate(properties::get));
        } catch (SqlEvaluationException e) {
            return false;
        }
    }
}
