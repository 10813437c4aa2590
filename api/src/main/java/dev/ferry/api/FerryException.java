package dev.ferry.api;

/**
 * Root of every exception Ferry's client API throws. Unchecked. {@link #isRetriable()} says whether the
 * same operation may succeed if tried again (a timeout, a broker that is busy or moved); the
 * {@link RetriableException} subtype is the retriable family.
 */
public class FerryException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public FerryException(String message) {
        super(message);
    }

    public FerryException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Whether trying the same operation again, possibly elsewhere, may succeed. */
    public boolean isRetriable() {
        return false;
    }
}
