package dev.ferry.api;

/** A failure that may go away on another attempt: a timeout, a lost connection, a busy broker. */
public class RetriableException extends FerryException {
    private static final long serialVersionUID = 1L;

    public RetriableException(String message) {
        super(message);
    }

    public RetriableException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public boolean isRetriable() {
        return true;
    }
}
