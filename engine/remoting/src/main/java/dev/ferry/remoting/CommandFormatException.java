package dev.ferry.remoting;

/** Bytes on the wire do not form a valid command */
public class CommandFormatException extends RemotingException {
    private static final long serialVersionUID = 1L;

    public CommandFormatException(String message) {
        super(message);
    }

    public CommandFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
