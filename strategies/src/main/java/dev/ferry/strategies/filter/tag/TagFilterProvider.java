package dev.ferry.strategies.filter.tag;

import dev.ferry.spi.ExpressionType;
import dev.ferry.spi.MessageFilter;
import dev.ferry.spi.MessageFilterProvider;

/** {@code TAG}: tag expressions such as {@code *} or {@code a || b}. */
public final class TagFilterProvider implements MessageFilterProvider {

    @Override
    public String name() {
        return ExpressionType.TAG;
    }

    @Override
    public MessageFilter compile(String expression) {
        return TagFilter.compile(expression);
    }
}
