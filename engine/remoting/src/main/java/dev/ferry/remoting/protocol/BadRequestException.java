package dev.ferry.remoting.protocol;

/**
 * A request that cannot be served as sent: a field missing or malformed, a name breaking the rules, a body that is
 * not what its code calls for. The server answers it with {@link #responseCode()} and the message as remark, counts
 * it, and does not log it as a failure of its own; a client that keeps sending such requests cannot flood the log.
 */
public class BadRequestException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final int responseCode;

    public BadRequestException(String message) {
        // what Apache's servers answer to a request they cannot decode
        this(ResponseCode.SYSTEM_ERROR, message);
    }

    public BadRequestException(int responseCode, String message) {
        super(message);
        this.responseCode = responseCode;
    }

    public BadRequestException(String message, Throwable cause) {
        super(message, cause);
        this.responseCode = ResponseCode.SYSTEM_ERROR;
    }

    /** The response code to answer with. */
    public int responseCode() {
        return responseCode;
    }
}
