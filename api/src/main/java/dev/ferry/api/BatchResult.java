package dev.ferry.api;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link BatchMessageListener} consumed of its batch: all of it, or the messages before the first that
 * failed. The first that failed and every message after it are delivered again, so a queue's order holds for an
 * orderly consumer, and a listener that stops at its first failure needs no bookkeeping.
 */
public final class BatchResult {
    private static final BatchResult CONSUMED = new BatchResult(null);

    /** The first message of the batch that was not consumed; {@code null} when all were. */
    private final ReceivedMessage firstFailed;

    private BatchResult(ReceivedMessage firstFailed) {
        this.firstFailed = firstFailed;
    }

    /** The whole batch was consumed. */
    public static BatchResult consumed() {
        return CONSUMED;
    }

    /**
     * The messages before {@code message} were consumed; {@code message} and those after it are delivered again.
     *
     * @param message a message of the batch, as the listener received it
     */
    public static BatchResult failedFrom(ReceivedMessage message) {
        return new BatchResult(Objects.requireNonNull(message, "message"));
    }

    /** The first message not consumed, if any. */
    public Optional<ReceivedMessage> firstFailed() {
        return Optional.ofNullable(firstFailed);
    }

    /**
     * Where in {@code batch} the failed part begins: {@code batch.size()} when all was consumed.
     *
     * @throws IllegalArgumentException when the failed message is not one of the batch
     */
    public int failedIndexIn(List<ReceivedMessage> batch) {
        if (firstFailed == null) {
            return batch.size();
        }
        for (int i = 0; i < batch.size(); i++) {
            ReceivedMessage message = batch.get(i);
            if (message == firstFailed || sameStoredMessage(message, firstFailed)) {
                return i;
            }
        }
        throw new IllegalArgumentException("failedFrom names message " + firstFailed.msgId() + " at "
                + firstFailed.queueId() + ":" + firstFailed.queueOffset() + ", which is not in the batch");
    }

    private static boolean sameStoredMessage(ReceivedMessage a, ReceivedMessage b) {
        return a.queueOffset() == b.queueOffset() && a.queueId() == b.queueId() && a.topic().equals(b.topic())
                && a.brokerName().equals(b.brokerName());
    }

    @Override
    public String toString() {
        return firstFailed == null ? "BatchResult[consumed]" : "BatchResult[failedFrom " + firstFailed.msgId() + "]";
    }
}
