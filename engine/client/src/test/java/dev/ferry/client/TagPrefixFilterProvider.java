package dev.ferry.client;

import dev.ferry.spi.FilterExpressionException;
import dev.ferry.spi.FilterableMessage;
import dev.ferry.spi.MessageFilter;
import dev.ferry.spi.MessageFilterProvider;

/** A filter plugin only the client's tests have: {@code TAG_PREFIX} keeps messages whose tag starts so. */
public final class TagPrefixFilterProvider implements MessageFilterProvider {
    static final String TYPE = "TAG_PREFIX";

    @Override
    public String name() {
        return TYPE;
    }

    @Override
    public MessageFilter compile(String expression) {
        if (expression.contains(" ")) {
            throw new FilterExpressionException(TYPE, expression, expression.indexOf(' '), "no spaces in a prefix");
        }
        return new MessageFilter() {
            @Override
            public String expressionType() {
                return TYPE;
            }

            @Override
            public String expression() {
                return expression;
            }

            @Override
            public boolean mayMatchTagsCode(long tagsCode) {
                return true;
            }

            @Override
            public boolean matches(FilterableMessage message) {
                return message.tags().filter(tags -> tags.startsWith(expression)).isPresent();
            }
        };
    }
}
