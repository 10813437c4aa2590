package dev.ferry.server.broker;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.ferry.format.NameRules;
import dev.ferry.format.StoredMessageView;
import dev.ferry.spi.FilterExpressionException;
import dev.ferry.spi.MessageFilter;
import dev.ferry.spi.MessageFilterProvider;
import dev.ferry.spi.PluginRegistry;
import dev.ferry.store.MessageFilterPredicate;
import java.util.Locale;

/**
 * Turns a subscription's expression into the store's read filter, through the filter plugin
 * named by the expression type ({@code TAG}, {@code SQL92} or a user's plugin). Compiled
 * filters are cached, since every pull of a group uses the same expression; the cache is bounded
 * by an estimate of the memory its filters take ({@value #WEIGHT_PER_CHARACTER} bytes per
 * character of expression), least recently used first out, and no expression longer than
 * {@link BrokerLimits#maxExpressionLength()} is compiled at all.
 */
final class SubscriptionFilters {
    static final String SQL92 = "SQL92";
    /** A compiled expression takes a few times the memory of its text: a generous estimate per character. */
    static final int WEIGHT_PER_CHARACTER = 16;
    private static final int WEIGHT_OF_ENTRY = 256;

    private final PluginRegistry<MessageFilterProvider> plugins;
    private final boolean sql92Enabled;
    private final int maxExpressionLength;
    private final Cache<CacheKey, MessageFilterPredicate> cache;

    private record CacheKey(String type, String expression) {
    }

    SubscriptionFilters(PluginRegistry<MessageFilterProvider> plugins, boolean sql92Enabled, int maxExpressionLength,
                        long cacheBytes) {
        this.plugins = plugins;
        this.sql92Enabled = sql92Enabled;
        this.maxExpressionLength = maxExpressionLength;
        this.cache = Caffeine.newBuilder().maximumWeight(cacheBytes)
                .weigher((CacheKey key, MessageFilterPredicate filter) -> WEIGHT_OF_ENTRY
                        + WEIGHT_PER_CHARACTER * (key.type().length() + key.expression().length()))
                .executor(Runnable::run)
                .build();
    }

    /** Why the expression is too long to compile, or {@code null}. */
    String lengthProblem(String expression) {
        return expression != null && expression.length() > maxExpressionLength ? "the subscription expression is "
                + expression.length() + " characters long; the broker compiles at most " + maxExpressionLength : null;
    }

    /** Estimated bytes the cached filters take now. */
    long cachedWeight() {
        cache.cleanUp();
        return cache.policy().eviction().map(e -> e.weightedSize().orElse(0L)).orElse(0L);
    }

    /**
     * The read filter for an expression.
     *
     * @throws UnsupportedFilterException when the type is SQL92 while it is disabled, or unknown
     * @throws FilterExpressionException when the expression does not compile or is too long
     */
    MessageFilterPredicate compile(String expressionType, String expression) {
        String type = expressionType == null || expressionType.isBlank() ? "TAG" : expressionType;
        if (SQL92.equals(type.toUpperCase(Locale.ROOT)) && !sql92Enabled) {
            throw new UnsupportedFilterException("The broker does not support consumer to filter message by SQL92");
        }
        String text = expression == null ? "*" : expression;
        String tooLong = lengthProblem(text);
        if (tooLong != null) {
            throw new FilterExpressionException(type, NameRules.shown(text), maxExpressionLength, tooLong);
        }
        CacheKey key = new CacheKey(type, text);
        MessageFilterPredicate cached = cache.getIfPresent(key);
        if (cached != null) {
            return cached;
        }
        MessageFilterProvider provider = plugins.find(type).orElseThrow(() -> new UnsupportedFilterException(
                "The broker has no filter for expression type " + NameRules.shown(type) + "; it has "
                        + plugins.names()));
        MessageFilterPredicate predicate = new PluginPredicate(provider.compile(text));
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
