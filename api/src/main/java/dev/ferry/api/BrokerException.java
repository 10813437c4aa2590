package dev.ferry.api;

/**
 * A broker or name server answered a request with an error response code.
 *
 * <p>Carries the RocketMQ response code and the server's remark. Whether it is retriable depends on the
 * code (a busy or unavailable broker is, an illegal message is not); the client decides that in one place.
 */
public class BrokerException extends FerryException {
    private static final long serialVersionUID = 1L;

    private final int responseCode;
    private final String remark;
    private final boolean retriable;

    /**
     * @param responseCode the response code, for example 14 (SERVICE_NOT_AVAILABLE)
     * @param remark the server's explanation, possibly {@code null}
     * @param retriable whether another attempt may succeed
     * @param message what was being done, for the exception message
     */
    public BrokerException(int responseCode, String remark, boolean retriable, String message) {
        super(message + ": response code " + responseCode + (remark == null ? "" : " (" + remark + ")"));
        this.responseCode = responseCode;
        this.remark = remark;
        this.retriable = retriable;
    }

    /** The RocketMQ response code. */
    public int responseCode() {
        return responseCode;
    }

    /** The server's explanation, or {@code null}. */
    public String remark() {
        return remark;
    }

    @Override
    public boolean isRetriable() {
        return retriable;
    }
}
