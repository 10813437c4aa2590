package dev.ferry.store;

import dev.ferry.format.StoredMessageView;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;

/**
 * Messages read from one queue.
 *
 * @param status          what the read found
 * @param messages        read-only slices of the mapped commit log, one per message, exactly as stored
 * @param queueOffsets    the queue offset of each message
 * @param nextBeginOffset where the next read of this queue should start
 * @param minOffset       the queue's min offset
 * @param nextOffset       the queue's next offset (one past the last message)
 */
public record GetMessageResult(GetMessageStatus status, List<ByteBuffer> messages, List<Long> queueOffsets,
                               long nextBeginOffset, long minOffset, long nextOffset) {

    public GetMessageResult {
        Objects.requireNonNull(status, "status");
        messages = List.copyOf(messages);
        queueOffsets = List.copyOf(queueOffsets);
    }

    static GetMessageResult empty(GetMessageStatus status, long nextBeginOffset, long minOffset, long nextOffset) {
        return new GetMessageResult(status, List.of(), List.of(), nextBeginOffset, minOffset, nextOffset);
    }

    /** Sum of the message sizes. */
    public int totalBytes() {
        return messages.stream().mapToInt(ByteBuffer::remaining).sum();
    }

    /** Views over the messages, for decoding. */
    public List<StoredMessageView> views() {
        return messages.stream().map(StoredMessageView::over).toList();
    }
}
