package dev.ferry.remoting;

/** Too many asynchronous or oneway requests are in flight to take another within its timeout. */
public class RemotingTooManyRequestsException extends RemotingException {
    private static final long serialVersionUID = 1L;

    public RemotingTooManyRequestsException(String message) {
        super(message);
    }

    public RemotingTooManyRequestsException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public boolean isRetriable() {
        return true;
    }
}
