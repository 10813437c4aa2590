package dev.ferry.client;

/** The outcome of a local transaction, which decides whether a half message is delivered. */
public enum TransactionState {
    /** Deliver the message. */
    COMMIT(8),
    /** Discard the message. */
    ROLLBACK(12),
    /** Not decided yet: the broker asks the producer group's {@link TransactionChecker} later. */
    UNKNOWN(0);

    private final int wireCode;

    TransactionState(int wireCode) {
        this.wireCode = wireCode;
    }

    /** The {@code commitOrRollback} value of END_TRANSACTION. */
    int wireCode() {
        return wireCode;
    }
}
