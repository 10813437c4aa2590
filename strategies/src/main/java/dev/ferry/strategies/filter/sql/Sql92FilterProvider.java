package dev.ferry.strategies.filter.sql;

import dev.ferry.spi.ExpressionType;
import dev.ferry.spi.MessageFilter;
import dev.ferry.spi.MessageFilterProvider;

/** {@code SQL92}: selectors over message properties, such as {@code a > 5 AND TAGS IN ('x', 'y')}. */
public final class Sql92FilterProvider implements MessageFilterProvider {

    @Override
    public String name() {
        return ExpressionType.SQL92;
    }

    @Override
    public MessageFilter compile(String expression) {
        return new Sql92Filter(expression, SqlParser.parse(expression == null ? "" : expression));
    }
}
