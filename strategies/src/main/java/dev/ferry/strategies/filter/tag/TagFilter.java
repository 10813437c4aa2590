package dev.ferry.strategies.filter.tag;

import dev.ferry.spi.ExpressionType;
import dev.ferry.spi.FilterExpressionException;
import dev.ferry.spi.FilterableMessage;
import dev.ferry.spi.MessageFilter;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A tag subscription, RocketMQ's default: {@code *} (or empty) takes every message, {@code a || b}
 * takes messages tagged exactly {@code a} or {@code b}. The pre-check compares the consume queue's tags
 * code with the tags' {@link String#hashCode()}s; the exact check compares the tag strings, which drops
 * hash collisions and untagged messages.
 */
final class TagFilter implements MessageFilter {

    private final String expression;
    /** Empty means every message. */
    private final Set<String> tags;
    private final Set<Integer> tagCodes;

    private TagFilter(String expression, Set<String> tags) {
        this.expression = expression;
        this.tags = Set.copyOf(tags);
        this.tagCodes = tags.stream().map(String::hashCode).collect(Collectors.toUnmodifiableSet());
    }

    /**
     * @param expression the subscription expression
     * @return the filter
     * @throws FilterExpressionException if the expression names no tag, for example {@code ||}
     */
    static TagFilter compile(String expression) {
        String text = expression == null ? "" : expression;
        if (text.isEmpty() || text.equals("*")) {
            return new TagFilter(text, Set.of());
        }
        Set<String> tags = new LinkedHashSet<>();
        for (String part : text.split("\\|\\|")) {
            String tag = part.trim();
            if (!tag.isEmpty()) {
                tags.add(tag);
            }
        }
        if (tags.isEmpty()) {
            throw new FilterExpressionException(ExpressionType.TAG, text, 0, "no tag between the '||' separators");
        }
        return new TagFilter(text, tags);
    }

    @Override
    public String expressionType() {
        return ExpressionType.TAG;
    }

    @Override
    public String expression() {
        return expression;
    }

    @Override
    public boolean mayMatchTagsCode(long tagsCode) {
        // The consume queue stores the tags' int hash code widened to a long.
        return tags.isEmpty() || tagCodes.contains((int) tagsCode);
    }

    @Override
    public boolean matches(FilterableMessage message) {
        return tags.isEmpty() || message.tags().filter(tags::contains).isPresent();
    }
}
