package dev.ferry.store;

import dev.ferry.format.StoredMessageView;
import java.util.Optional;

/**
 * The store as a consumer's requests see it: consume-queue reads and look-ups, and messages fetched by their
 * commit-log offset. Implemented by {@link MessageStore}; reads run on the caller's thread.
 */
public interface MessageReader {
    /**
     * Reads up to {@code maxMessages} messages / {@code maxBytes} bytes (at least one message when any matches) from
     * a queue, starting at {@code offset}, applying {@code filter} on the tag code and then on the message.
     */
    GetMessageResult getMessages(String topic, int queueId, long offset, int maxMessages, int maxBytes,
                                 MessageFilterPredicate filter);

    /** The queue's smallest readable offset (0 for an unknown queue). */
    long minOffset(String topic, int queueId);

    /** The queue's next offset: one past its last dispatched message (0 for an unknown queue). */
    long nextOffset(String topic, int queueId);

    /** The message stored at a commit-log offset. */
    Optional<StoredMessageView> messageAt(long physicalOffset);

    /** One past the last commit-log entry dispatched to consume queues and index. */
    long dispatchedOffset();

    /** One past the last written commit-log byte. */
    long commitLogEndOffset();
}
