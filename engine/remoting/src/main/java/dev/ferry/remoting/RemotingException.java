package dev.ferry.remoting;

/**
 * Root of the remoting layer's failures. {@link #isRetriable()} tells callers whether the same
 * request may succeed on another attempt (a timeout, a lost connection) or never will (a
 * malformed command).
 */
public class RemotingException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RemotingException(String message) {
        super(message);
    }

    public RemotingException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Whether trying again, possibly elsewhere, may succeed. */
    public boolean isRetriable() {
        return false;
    }
}
