package dev.ferry.remoting;

/** No connection to the peer could be made or kept. */
public class RemotingConnectException extends RemotingException {
    private static final long serialVersionUID = 1L;

    public RemotingConnectException(String message) {
        super(message);
    }

    public RemotingConnectException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public boolean isRetriable() {
        return true;
    }
}
