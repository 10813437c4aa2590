package dev.ferry.store;

/** Thrown inside the store when a message breaks a rule; turned into a rejected {@link AppendResult}. */
final class MessageRejectedException extends RuntimeException {
    private final AppendStatus status;

    MessageRejectedException(AppendStatus status, String detail) {
        super(detail);
        this.status = status;
    }

    AppendResult toResult() {
        return AppendResult.rejected(status, getMessage());
    }
}
