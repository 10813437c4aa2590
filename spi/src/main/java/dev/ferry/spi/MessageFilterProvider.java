package dev.ferry.spi;

/**
 * Compiles subscription expressions of one expression type; {@link #name()} is the type
 * ({@link ExpressionType}). Found through {@link java.util.ServiceLoader}.
 */
public interface MessageFilterProvider extends PluginProvider {

    /** The kind, for {@link PluginRegistry#load(PluginKind, ClassLoader)}. */
    PluginKind<MessageFilterProvider> KIND = new PluginKind<>(MessageFilterProvider.class, "message filter");

    /**
     * Compiles an expression once, when a subscription arrives.
     *
     * @param expression the expression as the client sent it
     * @return the compiled filter
     * @throws FilterExpressionException if the expression is malformed
     */
    MessageFilter compile(String expression);
}
