package dev.ferry.store;

/** Outcome of {@link MessageStore#getMessages}. */
public enum GetMessageStatus {
    /** At least one message matched. */
    FOUND,
    /** Entries were examined but none passed the filter; continue from the next offset. */
    NO_MATCHED_MESSAGE,
    /** The offset equals the queue's next offset: nothing new yet (the case a pull request is held for). */
    NO_NEW_MESSAGE,
    /** The queue does not exist or has never held a message. */
    NO_MESSAGE_IN_QUEUE,
    /** The offset is below the queue's min offset: those messages were deleted. */
    OFFSET_TOO_SMALL,
    /** The offset is beyond the queue's next offset. */
    OFFSET_OVERFLOW,
    /** The entries at the offset point outside the commit log's live range (being deleted, or never durable). */
    OFFSET_OUT_OF_RANGE
}
