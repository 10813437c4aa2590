package dev.ferry.strategies.filter.sql;

import dev.ferry.spi.ExpressionType;
import dev.ferry.spi.FilterExpressionException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Splits a SQL92 selector into tokens, with the lexical rules of RocketMQ's {@code SelectorParser.jj}:
 * case-insensitive keywords; identifiers {@code [a-zA-Z_$][a-zA-Z0-9_$]*}; {@code 'text'} strings with
 * {@code ''} for a quote; integers {@code 0} or {@code [1-9][0-9]*} with an optional {@code L}; floats
 * {@code 1.5}, {@code 1.}, {@code .5}, {@code 1e3} with optional exponents; {@code --} line and
 * {@code /* *}{@code /} block comments. A line comment may also end the input (upstream requires a newline
 * but then ignores what it cannot read, so both accept it).
 */
final class SqlLexer {

    private final String text;
    private int position;

    SqlLexer(String text) {
        this.text = text;
    }

    /**
     * @return every token, ending with one {@link SqlTokenType#END}
     * @throws FilterExpressionException at the first character that starts no token
     */
    List<SqlToken> tokens() {
        List<SqlToken> tokens = new ArrayList<>();
        for (SqlToken token = next(); ; token = next()) {
            tokens.add(token);
            if (token.type() == SqlTokenType.END) {
                return tokens;
            }
        }
    }

    private SqlToken next() {
        skipBlanksAndComments();
        if (position >= text.length()) {
            return new SqlToken(SqlTokenType.END, "", text.length());
        }
        int start = position;
        char c = text.charAt(position);
        if (isIdentifierStart(c)) {
            return word(start);
        }
        if (isDigit(c) || (c == '.' && isDigit(charAt(position + 1)))) {
            return number(start);
        }
        if (c == '\'') {
            return string(start);
        }
        return symbol(start, c);
    }

    private void skipBlanksAndComments() {
        while (position < text.length()) {
            char c = text.charAt(position);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
                position++;
            } else if (text.startsWith("--", position)) {
                while (position < text.length() && text.charAt(position) != '\n' && text.charAt(position) != '\r') {
                    position++;
                }
            } else if (text.startsWith("/*", position)) {
                int end = text.indexOf("*/", position + 2);
                if (end < 0) {
                    throw error(position, "unterminated comment");
                }
                position = end + 2;
            } else {
                return;
            }
        }
    }

    private SqlToken word(int start) {
        while (position < text.length() && isIdentifierPart(text.charAt(position))) {
            position++;
        }
        String word = text.substring(start, position);
        String upper = word.toUpperCase(Locale.ROOT);
        for (SqlTokenType type : SqlTokenType.values()) {
            if (type.isKeyword() && type.name().equals(upper)) {
                return new SqlToken(type, word, start);
            }
        }
        return new SqlToken(SqlTokenType.IDENTIFIER, word, start);
    }

    private SqlToken number(int start) {
        int digitsEnd = skipDigits(position);
        if (charAt(digitsEnd) == '.') {
            position = skipExponent(skipDigits(digitsEnd + 1));
            return new SqlToken(SqlTokenType.FLOAT, text.substring(start, position), start);
        }
        int exponentEnd = skipExponent(digitsEnd);
        if (exponentEnd > digitsEnd) {
            position = exponentEnd;
            return new SqlToken(SqlTokenType.FLOAT, text.substring(start, position), start);
        }
        // "0" is a whole token: "007" reads as 0 followed by 7, as upstream.
        position = text.charAt(start) == '0' ? start + 1 : digitsEnd;
        if (position > start + 1 || text.charAt(start) != '0') {
            char suffix = charAt(position);
            if (suffix == 'l' || suffix == 'L') {
                position++;
            }
        }
        return new SqlToken(SqlTokenType.DECIMAL, text.substring(start, position), start);
    }

    private int skipDigits(int from) {
        int at = from;
        while (isDigit(charAt(at))) {
            at++;
        }
        return at;
    }

    /** @return the end of an exponent starting at {@code from}, or {@code from} if there is none */
    private int skipExponent(int from) {
        if (charAt(from) != 'e' && charAt(from) != 'E') {
            return from;
        }
        int at = from + 1;
        if (charAt(at) == '+' || charAt(at) == '-') {
            at++;
        }
        int end = skipDigits(at);
        return end > at ? end : from;
    }

    private SqlToken string(int start) {
        StringBuilder value = new StringBuilder();
        position++;
        while (position < text.length()) {
            char c = text.charAt(position++);
            if (c != '\'') {
                value.append(c);
            } else if (charAt(position) == '\'') {
                value.append('\'');
                position++;
            } else {
                return new SqlToken(SqlTokenType.STRING, value.toString(), start);
            }
        }
        throw error(start, "unterminated string literal");
    }

    private SqlToken symbol(int start, char c) {
        char following = charAt(start + 1);
        SqlTokenType type = switch (c) {
            case '=' -> SqlTokenType.EQUAL;
            case '>' -> following == '=' ? SqlTokenType.GREATER_OR_EQUAL : SqlTokenType.GREATER;
            case '<' -> following == '=' ? SqlTokenType.LESS_OR_EQUAL
                    : following == '>' ? SqlTokenType.NOT_EQUAL : SqlTokenType.LESS;
            case '(' -> SqlTokenType.OPEN;
            case ')' -> SqlTokenType.CLOSE;
            case ',' -> SqlTokenType.COMMA;
            case '+' -> SqlTokenType.PLUS;
            case '-' -> SqlTokenType.MINUS;
            default -> throw error(start, "unexpected character '" + c + "'"
                    + (c == '!' ? " (use '<>' for not equal)" : ""));
        };
        boolean twoCharacters = type == SqlTokenType.GREATER_OR_EQUAL || type == SqlTokenType.LESS_OR_EQUAL
                || type == SqlTokenType.NOT_EQUAL;
        position = start + (twoCharacters ? 2 : 1);
        return new SqlToken(type, text.substring(start, position), start);
    }

    private char charAt(int index) {
        return index < text.length() ? text.charAt(index) : '\0';
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isIdentifierStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
    }

    private static boolean isIdentifierPart(char c) {
        return isIdentifierStart(c) || isDigit(c);
    }

    private FilterExpressionException error(int at, String reason) {
        return new FilterExpressionException(ExpressionType.SQL92, text, at, reason);
    }
}
