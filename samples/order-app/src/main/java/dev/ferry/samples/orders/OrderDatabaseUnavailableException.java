package dev.ferry.samples.orders;

/** The server has no data source for the order table, or it cannot be reached; the message is one line. */
public class OrderDatabaseUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public OrderDatabaseUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
