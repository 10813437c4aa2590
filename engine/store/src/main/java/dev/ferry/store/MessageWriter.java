package dev.ferry.store;

import java.util.concurrent.CompletableFuture;

/**
 * The store as a sender sees it: where messages are appended. Implemented by {@link MessageStore}; a test hands a
 * sender a fake that refuses or delays appends as it likes.
 */
public interface MessageWriter {
    /**
     * Appends one message without waiting for the flush. The future completes with the append's result: at once for a
     * rejection or under async flush, after the force that covers the message under sync flush. Appends made in turn
     * by one thread are stored in that order.
     */
    CompletableFuture<AppendResult> appendAsync(MessageToStore message);

    /** One past the last written commit-log byte: how far the log reaches now, for judging replicas' lag. */
    long commitLogEndOffset();
}
