package dev.ferry.client;

import dev.ferry.api.MessageQueue;
import java.time.Instant;

/**
 * A queue its consumer stopped delivering from because one message failed too often in a row (its
 * {@code pauseQueueAfterFailures}): the message and every later one of the queue wait until the queue is resumed
 * or the message skipped to the dead-letter queue.
 *
 * @param queue the paused queue
 * @param msgId the message that kept failing
 * @param queueOffset its offset in the queue
 * @param failures its failed deliveries in a row
 * @param lastFailure the last failure and its causes, as {@code Throwable.toString()} says each
 * @param pausedAt when the queue was paused
 */
public record PausedQueue(MessageQueue queue, String msgId, long queueOffset, int failures, String lastFailure,
                          Instant pausedAt) {
}
