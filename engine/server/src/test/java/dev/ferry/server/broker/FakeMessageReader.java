package dev.ferry.server.broker;

import dev.ferry.format.StoredMessageView;
import dev.ferry.store.GetMessageResult;
import dev.ferry.store.GetMessageStatus;
import dev.ferry.store.MessageFilterPredicate;
import dev.ferry.store.MessageReader;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A store whose reads answer what the test set: by default nothing in the queue; each read is recorded with the
 * offset and bounds it asked for.
 */
final class FakeMessageReader implements MessageReader {
    /** One read as the reader was asked for it. */
    record Read(String topic, int queueId, long offset, int maxMessages, int maxBytes) {
    }

    final List<Read> reads = new CopyOnWriteArrayList<>();
    private volatile GetMessageResult answer = new GetMessageResult(GetMessageStatus.NO_MESSAGE_IN_QUEUE, List.of(),
            List.of(), 0, 0, 0);
    volatile long nextOffset;
    volatile long dispatchedOffset;
    volatile long commitLogEndOffset;

    /** Every read from now on answers {@code status} with these offsets and no messages. */
    void answer(GetMessageStatus status, long nextBeginOffset, long minOffset, long queueNextOffset) {
        this.answer = new GetMessageResult(status, List.of(), List.of(), nextBeginOffset, minOffset, queueNextOffset);
    }

    /** Every read from now on finds {@code count} messages of {@code size} bytes from {@code offset}. */
    void found(long offset, int count, int size) {
        List<ByteBuffer> messages = new ArrayList<>();
        List<Long> offsets = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            messages.add(ByteBuffer.allocate(size));
            offsets.add(offset + i);
        }
        this.answer = new GetMessageResult(GetMessageStatus.FOUND, messages, offsets, offset + count, 0,
                offset + count);
        this.nextOffset = offset + count;
    }

    @Override
    public GetMessageResult getMessages(String topic, int queueId, long offset, int maxMessages, int maxBytes,
                                        MessageFilterPredicate filter) {
        reads.add(new Read(topic, queueId, offset, maxMessages, maxBytes));
        return answer;
    }

    @Override
    public long minOffset(String topic, int queueId) {
        return answer.minOffset();
    }

    @Override
    public long nextOffset(String topic, int queueId) {
        return nextOffset;
    }

    @Override
    public Optional<StoredMessageView> messageAt(long physicalOffset) {
        return Optional.empty();
    }

    @Override
    public long dispatchedOffset() {
        return dispatchedOffset;
    }

    @Override
    public long commitLogEndOffset() {
        return commitLogEndOffset;
    }
}
