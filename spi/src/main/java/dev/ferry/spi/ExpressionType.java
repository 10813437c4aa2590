package dev.ferry.spi;

/**
 * The expression type names RocketMQ clients send in subscriptions, which are also the names of the
 * built-in {@link MessageFilterProvider}s. Other filter plugins add their own names.
 */
public final class ExpressionType {

    /** Tag expressions: {@code *} or {@code tagA || tagB}. */
    public static final String TAG = "TAG";

    /** SQL92 selectors over message properties. */
    public static final String SQL92 = "SQL92";

    private ExpressionType() {
    }
}
