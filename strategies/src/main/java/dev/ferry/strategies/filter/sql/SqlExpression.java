package dev.ferry.strategies.filter.sql;

import java.util.Set;
import java.util.function.Function;
import java.util.function.IntPredicate;

/**
 * A compiled SQL92 selector: an immutable tree, evaluated per message with RocketMQ's three-valued
 * logic. A node yields {@code null} (unknown: a missing property), a {@link String}, {@link Integer},
 * {@link Long}, {@link Double} or {@link Boolean}; only {@link Boolean#TRUE} at the root selects a message.
 * A node that cannot be evaluated throws {@link SqlEvaluationException}, which rejects the message.
 */
sealed interface SqlExpression {

    /** The constant {@code NULL}, as {@code IS NULL} compares with it. */
    Constant NULL = new Constant(null);

    /**
     * @param properties the message's properties by name; {@code null} when absent
     * @return the node's value, possibly {@code null}
     * @throws SqlEvaluationException if the node cannot be evaluated for these properties
     */
    Object evaluate(Function<String, String> properties);

    /**
     * @return whether the parser treats this node as a condition (RocketMQ's {@code BooleanExpression}),
     *     which decides where it may appear
     */
    default boolean isCondition() {
        return true;
    }

    /** A literal. {@code TRUE}, {@code FALSE} and {@code NULL} count as conditions. */
    record Constant(Object value) implements SqlExpression {
        @Override
        public Object evaluate(Function<String, String> properties) {
            return value;
        }

        @Override
        public boolean isCondition() {
            return value == null || value instanceof Boolean;
        }
    }

    /** A message property, by name; {@code TAGS} holds the tags. */
    record Property(String name) implements SqlExpression {
        @Override
        public Object evaluate(Function<String, String> properties) {
            return properties.apply(name);
        }

        @Override
        public boolean isCondition() {
            return false;
        }
    }

    /** Unary minus; anything but a number yields unknown. */
    record Negate(SqlExpression operand) implements SqlExpression {
        @Override
        public Object evaluate(Function<String, String> properties) {
            Object value = operand.evaluate(properties);
            if (value instanceof Integer i) {
                return -i;
            }
            if (value instanceof Long l) {
                return -l;
            }
            return value instanceof Double d ? -d : null;
        }

        @Override
        public boolean isCondition() {
            return false;
        }
    }

    /** A property used as a condition: true only for a boolean value, which properties never are. */
    record BooleanCast(SqlExpression operand) implements SqlExpression {
        @Override
        public Object evaluate(Function<String, String> properties) {
            Object value = operand.evaluate(properties);
            return value == null ? null : Boolean.TRUE.equals(value);
        }
    }

    /** Logical NOT; unknown stays unknown. */
    record Not(SqlExpression operand) implements SqlExpression {
        @Override
        public Object evaluate(Function<String, String> properties) {
            Boolean value = asBoolean(operand.evaluate(properties));
            return value == null ? null : !value;
        }
    }

    /** Logical AND: false if either side is false, else unknown if either is unknown. */
    record And(SqlExpression left, SqlExpression right) implements SqlExpression {
        @Override
        public Object evaluate(Function<String, String> properties) {
            Boolean l = asBoolean(left.evaluate(properties));
            if (Boolean.FALSE.equals(l)) {
                return false;
            }
            Boolean r = asBoolean(right.evaluate(properties));
            if (Boolean.FALSE.equals(r)) {
                return false;
            }
            return l == null || r == null ? null : Boolean.TRUE;
        }
    }

    /** Logical OR: true if either side is true, else unknown if either is unknown. */
    record Or(SqlExpression left, SqlExpression right) implements SqlExpression {
        @Override
        public Object evaluate(Function<String, String> properties) {
            Boolean l = asBoolean(left.evaluate(properties));
            if (Boolean.TRUE.equals(l)) {
                return true;
            }
            Boolean r = asBoolean(right.evaluate(properties));
            if (Boolean.TRUE.equals(r)) {
                return true;
            }
            return l == null || r == null ? null : Boolean.FALSE;
        }
    }

    /**
     * {@code =}, and {@code IS NULL} as a comparison with {@link #NULL}: unknown when only the left side
     * is unknown, false when only the right is, true when both are.
     */
    record Equal(SqlExpression left, SqlExpression right) implements SqlExpression {
        @Override
        public Object evaluate(Function<String, String> properties) {
            Object l = left.evaluate(properties);
            Object r = right.evaluate(properties);
            if ((l == null) != (r == null)) {
                return l == null ? null : Boolean.FALSE;
            }
            return l == null || l.equals(r) || MixedTypeComparison.compare(l, r) == 0;
        }
    }

    /** The ordering operators. */
    enum Ordering {
        GREATER(c -> c > 0), GREATER_OR_EQUAL(c -> c >= 0), LESS(c -> c < 0), LESS_OR_EQUAL(c -> c <= 0);

        private final IntPredicate holds;

        Ordering(IntPredicate holds) {
            this.holds = holds;
        }
    }

    /** {@code > >= < <=}: two strings compare as numbers; unknown if either side is. */
    record Compare(Ordering ordering, SqlExpression left, SqlExpression right) implements SqlExpression {
        @Override
        public Object evaluate(Function<String, String> properties) {
            Object l = left.evaluate(properties);
            if (l == null) {
                return null;
            }
            Object r = right.evaluate(properties);
            if (r == null) {
                return null;
            }
            int comparison = l instanceof String ls && r instanceof String rs
                    ? Double.compare(MixedTypeComparison.parseDouble(ls), MixedTypeComparison.parseDouble(rs))
                    : MixedTypeComparison.compare(l, r);
            return ordering.holds.test(comparison);
        }
    }

    /** {@code [NOT] IN ('a', 'b')} on a property; unknown when the property is absent. */
    record In(Property property, Set<String> values, boolean negated) implements SqlExpression {
        /** Copies the values. */
        public In {
            values = Set.copyOf(values);
        }

        @Override
        public Object evaluate(Function<String, String> properties) {
            Object value = property.evaluate(properties);
            return value instanceof String text ? values.contains(text) != negated : null;
        }
    }

    /** The string tests. */
    enum TextTest {
        CONTAINS, STARTSWITH, ENDSWITH
    }

    /**
     * {@code [NOT] CONTAINS / STARTSWITH / ENDSWITH 'text'}. Upstream answers false, not unknown, for a
     * missing property or an empty search text, even when negated; so does Ferry.
     */
    record TextMatch(TextTest test, SqlExpression operand, String search, boolean negated) implements SqlExpression {
        @Override
        public Object evaluate(Function<String, String> properties) {
            if (search.isEmpty()) {
                return false;
            }
            if (!(operand.evaluate(properties) instanceof String text)) {
                return false;
            }
            boolean found = switch (test) {
                case CONTAINS -> text.contains(search);
                case STARTSWITH -> text.startsWith(search);
                case ENDSWITH -> text.endsWith(search);
            };
            return found != negated;
        }
    }

    private static Boolean asBoolean(Object value) {
        if (value == null || value instanceof Boolean) {
            return (Boolean) value;
        }
        throw new SqlEvaluationException("not a condition: " + value);
    }
}
