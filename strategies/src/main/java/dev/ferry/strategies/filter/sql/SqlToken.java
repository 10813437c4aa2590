package dev.ferry.strategies.filter.sql;

/**
 * One token of a selector.
 *
 * @param type its kind
 * @param text the characters as written
 * @param position the 0-based index of its first character
 */
record SqlToken(SqlTokenType type, String text, int position) {

    /** @return the token for messages */
    String describe() {
        return type == SqlTokenType.END ? type.describe() : "'" + text + "'";
    }
}
