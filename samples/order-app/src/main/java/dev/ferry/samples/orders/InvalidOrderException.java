package dev.ferry.samples.orders;

/** A request body that is not an order; the message is one line for the client. */
public class InvalidOrderException extends Exception {
    private static final long serialVersionUID = 1L;

    public InvalidOrderException(String message) {
        super(message);
    }
}
