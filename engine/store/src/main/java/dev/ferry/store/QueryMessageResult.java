package dev.ferry.store;

import dev.ferry.format.StoredMessageView;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Messages found by key.
 *
 * @param messages                    read-only slices of the stored messages, newest index file first
 * @param indexLastUpdateTimestamp    store timestamp of the last indexed message
 * @param indexLastUpdatePhysicalOffset commit-log offset up to which messages are indexed
 */
public record QueryMessageResult(List<ByteBuffer> messages, long indexLastUpdateTimestamp,
                                 long indexLastUpdatePhysicalOffset) {

    public QueryMessageResult {
        messages = List.copyOf(messages);
    }

    public List<StoredMessageView> views() {
        return messages.stream().map(StoredMessageView::over).toList();
    }
}
