package dev.ferry.remoting;

/** No response arrived within the request's timeout. */
public class RemotingTimeoutException extends RemotingException {
    private static final long serialVersionUID = 1L;

    public RemotingTimeoutException(String message) {
        super(message);
    }

    public RemotingTimeoutException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public boolean isRetriable() {
        return true;
    }
}
