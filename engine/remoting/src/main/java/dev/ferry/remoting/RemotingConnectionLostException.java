package dev.ferry.remoting;

/**
 * The connection closed after the request was sent and before its answer came: the peer may have acted on it (a
 * broker may have stored the message), so its outcome is unknown. Unlike {@link RemotingConnectException}, which
 * means the request never left.
 */
public class RemotingConnectionLostException extends RemotingException {
    private static final long serialVersionUID = 1L;

    public RemotingConnectionLostException(String message) {
        super(message);
    }

    @Override
    public boolean isRetriable() {
        return true;
    }
}
