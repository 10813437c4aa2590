package dev.ferry.strategies.filter.sql;

/**
 * Orders two non-null selector values of possibly different types the way RocketMQ's
 * {@code ComparisonExpression} does, quirks included, so both sides of a mixed cluster filter alike.
 *
 * <p>Values are {@link String} (properties and string literals), {@link Integer} or {@link Long}
 * (integer literals, {@code Integer} when they fit), {@link Double} and {@link Boolean}. A number
 * meeting a string parses the string as the number's type (a parse failure is an evaluation error);
 * a boolean meeting a string on the right is an error upstream (a failed cast), on the left the string
 * is read with {@link Boolean#parseBoolean}; any other pairing of types is "less than".
 */
final class MixedTypeComparison {

    private MixedTypeComparison() {
    }

    /**
     * @param left the left value
     * @param right the right value
     * @return negative, zero or positive as {@code left} is less than, equal to or greater than {@code right}
     * @throws SqlEvaluationException when a string does not parse as the other side's type
     */
    static int compare(Object left, Object right) {
        if (left.getClass() == right.getClass()) {
            return sameType(left, right);
        }
        if (left instanceof Integer l) {
            if (right instanceof Long r) {
                return Long.compare(l, r);
            }
            if (right instanceof Double r) {
                return Double.compare(l, r);
            }
            return right instanceof String r ? Integer.compare(l, parseInt(r)) : -1;
        }
        if (left instanceof Long l) {
            if (right instanceof Integer r) {
                return Long.compare(l, r);
            }
            if (right instanceof Double r) {
                return Double.compare(l, r);
            }
            return right instanceof String r ? Long.compare(l, parseLong(r)) : -1;
        }
        if (left instanceof Double l) {
            if (right instanceof Integer || right instanceof Long) {
                return Double.compare(l, ((Number) right).doubleValue());
            }
            return right instanceof String r ? Double.compare(l, parseDouble(r)) : -1;
        }
        if (left instanceof String l) {
            if (right instanceof Boolean r) {
                return Boolean.compare(Boolean.parseBoolean(l), r);
            }
            if (right instanceof Integer r) {
                return Integer.compare(parseInt(l), r);
            }
            if (right instanceof Long r) {
                return Long.compare(parseLong(l), r);
            }
            return right instanceof Double r ? Double.compare(parseDouble(l), r) : -1;
        }
        if (left instanceof Boolean && right instanceof String) {
            throw new SqlEvaluationException("a boolean cannot be compared with the string '" + right + "'");
        }
        return -1;
    }

    @SuppressWarnings("unchecked")
    private static int sameType(Object left, Object right) {
        return ((Comparable<Object>) left).compareTo(right);
    }

    static int parseInt(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw notA("an int", text);
        }
    }

    static long parseLong(String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw notA("a long", text);
        }
    }

    static double parseDouble(String text) {
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw notA("a number", text);
        }
    }

    private static SqlEvaluationException notA(String type, String text) {
        return new SqlEvaluationException("'" + text + "' is not " + type);
    }
}
