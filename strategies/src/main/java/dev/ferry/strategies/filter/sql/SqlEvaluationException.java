package dev.ferry.strategies.filter.sql;

/** A selector cannot be evaluated for one message, for example a non-numeric property compared with a number. */
final class SqlEvaluationException extends RuntimeException {

    SqlEvaluationException(String message) {
        super(message, null, false, false);
    }
}
