package dev.ferry.remoting.protocol;


/** A command's extension fields do not make the typed header asked for. */
public class HeaderFormatException extends BadRequestException {
    private static final long serialVersionUID = 1L;

    public HeaderFormatException(String message) {
        super(message);
    }

    public HeaderFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
