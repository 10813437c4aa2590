package dev.ferry.spi;

/**
 * A broker could not be asked about, or told, a consumer offset: a timeout, a lost connection or an
 * error response. Distinct from "the broker has no offset" on purpose: reading a failure as "no offset"
 * makes consumers reset to the first or last offset (RocketMQ issues #2708, #2944).
 *
 * <p>Checked, so every offset store has to decide what a failure means for it.
 */
public class BrokerOffsetException extends Exception {

    /**
     * @param message what failed, naming the queue and broker
     * @param cause the underlying failure, may be {@code null}
     */
    public BrokerOffsetException(String message, Throwable cause) {
        super(message, cause);
    }
}
