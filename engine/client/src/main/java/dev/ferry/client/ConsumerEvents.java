package dev.ferry.client;

import dev.ferry.api.MessageQueue;

/**
 * What a push consumer tells its owner as it happens, besides delivering messages. Called on the consumer's
 * threads; keep it short.
 */
public interface ConsumerEvents {
    /** Tells nothing. */
    ConsumerEvents NONE = new ConsumerEvents() {
    };

    /** A message failed {@code pauseQueueAfterFailures} times in a row and its queue stopped. */
    default void queuePaused(PausedQueue paused, Throwable lastFailure) {
    }

    /** A paused queue goes on: with its message delivered again, or with that message skipped. */
    default void queueResumed(MessageQueue queue, String msgId, boolean skipped) {
    }
}
