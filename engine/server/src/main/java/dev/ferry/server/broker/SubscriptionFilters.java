package dev.ferry.server.broker;

import dev.ferry.spi.FilterExpressionException;
import dev.ferry.spi.MessageFilter;
import dev.ferry.spi.MessageFilterProvider;
import dev.ferry.spi.PluginRegistry;
import dev.ferry.store.MessageFilterPredicate;
import dev.ferry.store.StoredMessageView;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Turns a subscription's expression into the store's read filter, through the filter plugin
 * named by the expression type ({@code TAG}, {@code SQL92} or a user's plugin). Compiled
 * filters are cached: every pull of a group uses the same expression.
 */
final class SubscriptionFilters {
    static final String SQL92 = "SQL92";
    private static final int MAX_CACHED = 10_000;

    private final PluginRegistry<MessageFilterProvider> plugins;
    private final boolean sql92Enabled;
    private final Map<String, MessageFilterPredicate> cache = new ConcurrentHashMap<>();

    SubscriptionFilters(PluginRegistry<MessageFilterProvider> plugins, boolean sql92Enabled) {
        this.plugins = plugins;
        this.sql92Enabled = sql92Enabled;
    }

    /**
     * The read filter for an expression.
     *
     * @throws UnsupportedFilterException when the type is SQL92 while it is disabled, or unknown
     * @throws FilterExpressionException when the expression does not compile
     */
    MessageFilterPredicate compile(String expressionType, String expression) {
        String type = expressionType == null || expressionType.isBlank() ? "TAG" : expressionType;
        if (SQL92.equals(type.toUpperCase(Locale.ROOT)) && !sql92Enabled) {
            throw new UnsupportedFilterException("The broker does not support consumer to filter message by SQL92");
        }
        String key = type + '\u0000' + expression;
        MessageFilterPredicate cached = cache.get(key);
        if (cached != null) {
            return cached;
        }
        MessageFilterProvider provider = plugins.find(type).orElseThrow(() -> new UnsupportedFilterException(
                "The broker has no filter for expression type '" + type + "'; it has " + plugins.names()));
        MessageFilterPredicate predicate = new PluginPredicate(provider.compile(expression == null ? "*" : expression));
        if (cache.size() >= MAX_CACHED) {
            cache.clear();
        }
        cache.put(key, predicate);
        return predicate;
    }

    /** The expression type asked for is not served here. */
    static final class UnsupportedFilterException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UnsupportedFilterException(String message) {
            super(message);
        }
    }

    private record PluginPredicate(MessageFilter filter) implements MessageFilterPredicate {
        @Override
        public boolean matchesTagsCode(long tagsCode) {
            return filter.mayMatchTagsCode(tagsCode);
        }

        @Override
        public boolean matches(StoredMessageView message) {
            return filter.matches(new StoredFilterableMessage(message));
        }
    }
}
