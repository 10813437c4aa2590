package dev.ferry.spi;

/**
 * A subscription expression cannot be compiled. The message names the expression type, the position
 * (0-based character index) and what was expected there.
 */
public final class FilterExpressionException extends PluginException {

    private final String expression;
    private final int position;

    /**
     * @param expressionType the type, for example {@code SQL92}
     * @param expression the expression as given
     * @param position the 0-based index of the offending character
     * @param reason what is wrong there
     */
    public FilterExpressionException(String expressionType, String expression, int position, String reason) {
        super("Invalid " + expressionType + " expression at position " + position + ": " + reason
                + " in '" + expression + "'");
        this.expression = expression;
        this.position = position;
    }

    /** @return the expression as given */
    public String expression() {
        return expression;
    }

    /** @return the 0-based index of the offending character */
    public int position() {
        return position;
    }
}
