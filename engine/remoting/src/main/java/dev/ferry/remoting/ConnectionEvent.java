package dev.ferry.remoting;

/**
 * Something that happened to a connection.
 *
 * @param type    what happened
 * @param channel the connection
 * @param cause   the failure, for {@link Type#EXCEPTION}; otherwise {@code null}
 */
public record ConnectionEvent(Type type, RemoteChannel channel, Throwable cause) {

    public enum Type {
        CONNECT, CLOSE, IDLE, EXCEPTION
    }
}
