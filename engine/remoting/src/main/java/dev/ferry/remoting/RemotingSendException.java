package dev.ferry.remoting;

/** The request could not be written to the connection. */
public class RemotingSendException extends RemotingException {
    private static final long serialVersionUID = 1L;

    public RemotingSendException(String message) {
        super(message);
    }

    public RemotingSendException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public boolean isRetriable() {
        return true;
    }
}
