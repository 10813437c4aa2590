package dev.ferry.samples.custom;

import dev.ferry.spi.FilterExpressionException;
import dev.ferry.spi.FilterableMessage;
import dev.ferry.spi.MessageFilter;
import dev.ferry.spi.MessageFilterProvider;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Expression type {@code TAG_REGEX}: a Java regular expression the whole tag must match, for example
 * {@code order-(paid|shipped)}. Registered in {@code META-INF/services/dev.ferry.spi.MessageFilterProvider}.
 */
public final class TagRegexFilterProvider implements MessageFilterProvider {

    /** The expression type name. */
    public static final String TYPE = "TAG_REGEX";

    @Override
    public String name() {
        return TYPE;
    }

    @Override
    public MessageFilter compile(String expression) {
        try {
            return new TagRegexFilter(expression, Pattern.compile(expression));
        } catch (PatternSyntaxException e) {
            throw new FilterExpressionException(TYPE, expression, Math.max(e.getIndex(), 0), e.getDescription());
        }
    }

    private record TagRegexFilter(String expression, Pattern pattern) implements MessageFilter {

        @Override
        public String expressionType() {
            return TYPE;
        }

        @Override
        public boolean mayMatchTagsCode(long tagsCode) {
            // A hash code says nothing about a pattern.
            return true;
        }

        @Override
        public boolean matches(FilterableMessage message) {
            return message.tags().filter(tags -> pattern.matcher(tags).matches()).isPresent();
        }
    }
}
