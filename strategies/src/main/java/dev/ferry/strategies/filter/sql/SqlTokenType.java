package dev.ferry.strategies.filter.sql;

/** The kinds of token in a SQL92 selector. */
enum SqlTokenType {
    NOT, AND, OR, BETWEEN, IN, TRUE, FALSE, NULL, IS, CONTAINS, STARTSWITH, ENDSWITH,
    DECIMAL, FLOAT, STRING, IDENTIFIER,
    EQUAL("="), NOT_EQUAL("<>"), GREATER(">"), GREATER_OR_EQUAL(">="), LESS("<"), LESS_OR_EQUAL("<="),
    OPEN("("), CLOSE(")"), COMMA(","), PLUS("+"), MINUS("-"),
    END;

    private final String symbol;

    SqlTokenType() {
        this.symbol = null;
    }

    SqlTokenType(String symbol) {
        this.symbol = symbol;
    }

    /** @return how the token is written, for messages */
    String describe() {
        if (symbol != null) {
            return "'" + symbol + "'";
        }
        return switch (this) {
            case DECIMAL -> "an integer";
            case FLOAT -> "a floating-point number";
            case STRING -> "a string literal";
            case IDENTIFIER -> "a property name";
            case END -> "the end of the expression";
            default -> name();
        };
    }

    /** @return whether this is a reserved word */
    boolean isKeyword() {
        return ordinal() <= ENDSWITH.ordinal();
    }
}
