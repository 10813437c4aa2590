package dev.ferry.remoting.protocol.body;

import dev.ferry.remoting.protocol.BadRequestException;

/** A command body is not the JSON its request code calls for. */
public class BodyFormatException extends BadRequestException {
    private static final long serialVersionUID = 1L;

    public BodyFormatException(String message) {
        super(message);
    }

    public BodyFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
