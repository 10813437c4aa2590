package dev.ferry.api;

/** A message (or its topic, body or properties) breaks the rules; it was not sent and never will be as is. */
public class InvalidMessageException extends FerryException {
    private static final long serialVersionUID = 1L;

    public InvalidMessageException(String message) {
        super(message);
    }
}
