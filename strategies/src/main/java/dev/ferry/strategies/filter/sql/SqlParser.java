package dev.ferry.strategies.filter.sql;

import dev.ferry.spi.ExpressionType;
import dev.ferry.spi.FilterExpressionException;
import dev.ferry.strategies.filter.sql.SqlExpression.And;
import dev.ferry.strategies.filter.sql.SqlExpression.BooleanCast;
import dev.ferry.strategies.filter.sql.SqlExpression.Compare;
import dev.ferry.strategies.filter.sql.SqlExpression.Constant;
import dev.ferry.strategies.filter.sql.SqlExpression.Equal;
import dev.ferry.strategies.filter.sql.SqlExpression.In;
import dev.ferry.strategies.filter.sql.SqlExpression.Negate;
import dev.ferry.strategies.filter.sql.SqlExpression.Not;
import dev.ferry.strategies.filter.sql.SqlExpression.Or;
import dev.ferry.strategies.filter.sql.SqlExpression.Ordering;
import dev.ferry.strategies.filter.sql.SqlExpression.Property;
import dev.ferry.strategies.filter.sql.SqlExpression.TextMatch;
import dev.ferry.strategies.filter.sql.SqlExpression.TextTest;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BinaryOperator;
import java.util.function.Supplier;

/**
 * Recursive-descent parser for SQL92 selectors, with the grammar and the compile-time checks of
 * RocketMQ's {@code SelectorParser.jj}, so that Ferry and Apache brokers accept the same subscriptions:
 *
 * <pre>
 * selector   := or END
 * or         := and (OR and)*
 * and        := equality (AND equality)*
 * equality   := comparison ('=' comparison | '&lt;&gt;' comparison | IS [NOT] NULL)*
 * comparison := unary (('&gt;' | '&gt;=' | '&lt;' | '&lt;=') unary
 *                      | [NOT] (CONTAINS | STARTSWITH | ENDSWITH) string
 *                      | [NOT] BETWEEN unary AND unary
 *                      | [NOT] IN '(' string (',' string)* ')')*
 * unary      := '+' unary | '-' unary | NOT unary | primary
 * primary    := literal | identifier | '(' or ')'
 * </pre>
 *
 * Two deliberate differences: input left over after a complete selector is an error (upstream silently
 * ignores it, so {@code a = 1 b = 2} means {@code a = 1} there), and a float literal that is exactly
 * zero, such as {@code 0.0}, is accepted (upstream rejects it as "less than Double.MIN_VALUE").
 */
final class SqlParser {

    /** Deeper nesting is refused instead of risking a stack overflow on hostile input. */
    private static final int MAX_DEPTH = 200;
    /** Each binary operator deepens the tree that evaluation recurses through; same reason. */
    private static final int MAX_OPERATORS = 1000;

    private final String text;
    private final List<SqlToken> tokens;
    private int next;
    private int depth;
    private int operators;

    private SqlParser(String text) {
        this.text = text;
        this.tokens = new SqlLexer(text).tokens();
    }

    /**
     * @param text the selector
     * @return the compiled selector
     * @throws FilterExpressionException if it is malformed; the message gives the position
     */
    static SqlExpression parse(String text) {
        SqlParser parser = new SqlParser(text);
        SqlToken first = parser.peek();
        SqlExpression selector = parser.condition(parser.or(), first);
        SqlToken rest = parser.peek();
        if (rest.type() != SqlTokenType.END) {
            throw parser.error(rest, "unexpected " + rest.describe() + " after a complete condition");
        }
        return selector;
    }

    private SqlExpression or() {
        return chain(SqlTokenType.OR, this::and, Or::new);
    }

    private SqlExpression and() {
        return chain(SqlTokenType.AND, this::equality, And::new);
    }

    /** {@code operand (operator operand)*}, left-associative, both sides read as conditions. */
    private SqlExpression chain(SqlTokenType operator, Supplier<SqlExpression> operand,
            BinaryOperator<SqlExpression> combine) {
        SqlToken start = peek();
        SqlExpression left = operand.get();
        while (peek().type() == operator) {
            takeOperator();
            SqlToken rightStart = peek();
            SqlExpression right = operand.get();
            left = combine.apply(condition(left, start), condition(right, rightStart));
        }
        return left;
    }

    private SqlExpression equality() {
        SqlExpression left = comparison();
        while (true) {
            SqlToken operator = peek();
            switch (operator.type()) {
                case EQUAL -> {
                    takeOperator();
                    left = equal(left, comparison(), operator);
                }
                case NOT_EQUAL -> {
                    takeOperator();
                    left = new Not(equal(left, comparison(), operator));
                }
                case IS -> {
                    takeOperator();
                    boolean negated = accept(SqlTokenType.NOT);
                    expect(SqlTokenType.NULL, negated ? "NULL after IS NOT" : "NULL or NOT NULL after IS");
                    Equal isNull = new Equal(left, SqlExpression.NULL);
                    left = negated ? new Not(isNull) : isNull;
                }
                default -> {
                    return left;
                }
            }
        }
    }

    private SqlExpression comparison() {
        SqlExpression left = unary();
        while (true) {
            SqlToken operator = peek();
            switch (operator.type()) {
                case GREATER -> left = compare(Ordering.GREATER, left, operator);
                case GREATER_OR_EQUAL -> left = compare(Ordering.GREATER_OR_EQUAL, left, operator);
                case LESS -> left = compare(Ordering.LESS, left, operator);
                case LESS_OR_EQUAL -> left = compare(Ordering.LESS_OR_EQUAL, left, operator);
                case CONTAINS, STARTSWITH, ENDSWITH, BETWEEN, IN -> left = negatable(left, operator, false);
                case NOT -> {
                    next++;
                    SqlToken negatedOperator = peek();
                    left = negatable(left, negatedOperator, true);
                }
                default -> {
                    return left;
                }
            }
        }
    }

    /** The operators that may follow NOT: string tests, BETWEEN and IN. */
    private SqlExpression negatable(SqlExpression left, SqlToken operator, boolean negated) {
        takeOperator();
        return switch (operator.type()) {
            case CONTAINS -> new TextMatch(TextTest.CONTAINS, left, string(), negated);
            case STARTSWITH -> new TextMatch(TextTest.STARTSWITH, left, string(), negated);
            case ENDSWITH -> new TextMatch(TextTest.ENDSWITH, left, string(), negated);
            case BETWEEN -> between(left, operator, negated);
            case IN -> in(left, operator, negated);
            default -> throw error(operator, "expected CONTAINS, STARTSWITH, ENDSWITH, BETWEEN or IN after NOT, found "
                    + operator.describe());
        };
    }

    private SqlExpression between(SqlExpression value, SqlToken operator, boolean negated) {
        SqlExpression low = unary();
        expect(SqlTokenType.AND, "AND between the bounds of BETWEEN");
        SqlExpression high = unary();
        if (negated) {
            return new Or(checkedCompare(Ordering.LESS, value, low, operator),
                    checkedCompare(Ordering.GREATER, value, high, operator));
        }
        if (low instanceof Constant lowConstant && high instanceof Constant highConstant) {
            if (lowConstant.value() == null || highConstant.value() == null) {
                throw error(operator, "the bounds of BETWEEN cannot be NULL");
            }
            if (boundsOrder(highConstant.value(), lowConstant.value(), operator) < 0) {
                throw error(operator, "the lower bound of BETWEEN is greater than the upper bound");
            }
        }
        return new And(checkedCompare(Ordering.GREATER_OR_EQUAL, value, low, operator),
                checkedCompare(Ordering.LESS_OR_EQUAL, value, high, operator));
    }

    private int boundsOrder(Object high, Object low, SqlToken operator) {
        try {
            return MixedTypeComparison.compare(high, low);
        } catch (SqlEvaluationException e) {
            throw error(operator, "the bounds of BETWEEN cannot be compared: " + e.getMessage());
        }
    }

    private SqlExpression in(SqlExpression left, SqlToken operator, boolean negated) {
        expect(SqlTokenType.OPEN, "'(' after IN");
        Set<String> values = new LinkedHashSet<>();
        values.add(string());
        while (accept(SqlTokenType.COMMA)) {
            values.add(string());
        }
        expect(SqlTokenType.CLOSE, "',' or ')' in the IN list");
        if (!(left instanceof Property property)) {
            throw error(operator, "IN needs a property on its left");
        }
        return new In(property, values, negated);
    }

    private SqlExpression compare(Ordering ordering, SqlExpression left, SqlToken operator) {
        takeOperator();
        return checkedCompare(ordering, left, unary(), operator);
    }

    /** Only numbers, properties and arithmetic may be ordered, as upstream checks at compile time. */
    private SqlExpression checkedCompare(Ordering ordering, SqlExpression left, SqlExpression right,
            SqlToken operator) {
        for (SqlExpression operand : List.of(left, right)) {
            boolean number = operand instanceof Constant constant && constant.value() instanceof Number;
            if (!number && (operand instanceof Constant || operand.isCondition())) {
                throw error(operator, "only numbers and properties can be compared with " + operator.describe());
            }
        }
        return new Compare(ordering, left, right);
    }

    private SqlExpression equal(SqlExpression left, SqlExpression right, SqlToken operator) {
        for (SqlExpression operand : List.of(left, right)) {
            if (operand instanceof Constant constant && constant.value() == null) {
                throw error(operator, "NULL cannot be compared with " + operator.describe() + "; use IS [NOT] NULL");
            }
        }
        if (left instanceof Constant && right instanceof Constant && left.isCondition() && !right.isCondition()) {
            throw error(operator, "a boolean literal cannot be compared with a non-boolean literal");
        }
        return new Equal(left, right);
    }

    /** Consumes a binary operator's token, counting it. */
    private void takeOperator() {
        if (++operators > MAX_OPERATORS) {
            throw error(peek(), "more than " + MAX_OPERATORS + " operators");
        }
        next++;
    }

    private SqlExpression unary() {
        SqlToken token = peek();
        if (++depth > MAX_DEPTH) {
            throw error(token, "nested deeper than " + MAX_DEPTH + " levels");
        }
        try {
            switch (token.type()) {
                case PLUS -> {
                    next++;
                    return unary();
                }
                case MINUS -> {
                    next++;
                    return new Negate(unary());
                }
                case NOT -> {
                    next++;
                    SqlToken operandStart = peek();
                    return new Not(condition(unary(), operandStart));
                }
                default -> {
                    return primary();
                }
            }
        } finally {
            depth--;
        }
    }

    private SqlExpression primary() {
        SqlToken token = tokens.get(next++);
        return switch (token.type()) {
            case STRING -> new Constant(token.text());
            case DECIMAL -> decimal(token);
            case FLOAT -> floating(token);
            case TRUE -> new Constant(Boolean.TRUE);
            case FALSE -> new Constant(Boolean.FALSE);
            case NULL -> SqlExpression.NULL;
            case IDENTIFIER -> new Property(token.text());
            case OPEN -> {
                SqlExpression inner = or();
                expect(SqlTokenType.CLOSE, "')'");
                yield inner;
            }
            default -> throw error(token, "expected a literal, a property or '(' but found " + token.describe());
        };
    }

    private SqlExpression decimal(SqlToken token) {
        String digits = token.text().replaceFirst("[lL]$", "");
        try {
            long value = Long.parseLong(digits);
            // Integer where it fits, as upstream: it decides how a property string is parsed. (No ?: here:
            // it would promote both branches to Long.)
            if (value == (int) value) {
                return new Constant(Integer.valueOf((int) value));
            }
            return new Constant(Long.valueOf(value));
        } catch (NumberFormatException e) {
            throw error(token, "integer " + token.text() + " is out of the long range");
        }
    }

    private SqlExpression floating(SqlToken token) {
        double value = Double.parseDouble(token.text());
        if (Double.isInfinite(value)) {
            throw error(token, "number " + token.text() + " is out of the double range");
        }
        String mantissa = token.text().split("[eE]")[0];
        if (value == 0 && mantissa.chars().anyMatch(c -> c >= '1' && c <= '9')) {
            throw error(token, "number " + token.text() + " is too small for a double");
        }
        return new Constant(value);
    }

    private String string() {
        return expect(SqlTokenType.STRING, "a string literal").text();
    }

    /** Where a condition is needed a property is read as a boolean, anything else that is no condition fails. */
    private SqlExpression condition(SqlExpression expression, SqlToken start) {
        if (expression.isCondition()) {
            return expression;
        }
        if (expression instanceof Property) {
            return new BooleanCast(expression);
        }
        throw error(start, "expected a condition, but the expression starting here yields a value");
    }

    private SqlToken peek() {
        return tokens.get(next);
    }

    private boolean accept(SqlTokenType type) {
        if (peek().type() == type) {
            next++;
            return true;
        }
        return false;
    }

    private SqlToken expect(SqlTokenType type, String expected) {
        SqlToken token = peek();
        if (token.type() != type) {
            throw error(token, "expected " + expected + " but found " + token.describe());
        }
        next++;
        return token;
    }

    private FilterExpressionException error(SqlToken at, String reason) {
        return new FilterExpressionException(ExpressionType.SQL92, text, at.position(), reason);
    }
}
