package dev.ferry.store;

import dev.ferry.format.StoredMessageView;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads messages of one queue through its consume queue: offset checks, the two-step filter, size limits, and the
 * binary search by store timestamp. Stateless; any thread.
 */
final class ConsumeQueueReader {
    private final ConsumeQueueTable consumeQueues;
    private final CommitLog commitLog;
    private final int maxEntriesScanned;

    ConsumeQueueReader(ConsumeQueueTable consumeQueues, CommitLog commitLog, int maxEntriesScanned) {
        this.consumeQueues = consumeQueues;
        this.commitLog = commitLog;
        this.maxEntriesScanned = maxEntriesScanned;
    }

    GetMessageResult read(String topic, int queueId, long offset, int maxMessages, int maxBytes,
                          MessageFilterPredicate filter) {
        Optional<ConsumeQueue> found = consumeQueues.find(topic, queueId);
        if (found.isEmpty() || found.get().nextOffset() == 0) {
            return GetMessageResult.empty(GetMessageStatus.NO_MESSAGE_IN_QUEUE, 0, 0, 0);
        }
        ConsumeQueue queue = found.get();
        long min = queue.minOffset();
        long max = queue.nextOffset();
        if (offset < min) {
            return GetMessageResult.empty(GetMessageStatus.OFFSET_TOO_SMALL, min, min, max);
        }
        if (offset == max) {
            return GetMessageResult.empty(GetMessageStatus.NO_NEW_MESSAGE, offset, min, max);
        }
        if (offset > max) {
            return GetMessageResult.empty(GetMessageStatus.OFFSET_OVERFLOW, max, min, max);
        }
        return scan(queue, offset, max, maxMessages, maxBytes, filter);
    }

    private GetMessageResult scan(ConsumeQueue queue, long offset, long max, int maxMessages, int maxBytes,
                                  MessageFilterPredicate filter) {
        List<ByteBuffer> messages = new ArrayList<>();
        List<Long> offsets = new ArrayList<>();
        boolean outOfRange = false;
        int bytes = 0;
        long next = offset;
        long scanLimit = Math.min(max, offset + maxEntriesScanned);
        for (; next < scanLimit && messages.size() < maxMessages; next++) {
            Optional<ConsumeQueue.Entry> entry = queue.entry(next);
            if (entry.isEmpty() || !filter.matchesTagsCode(entry.get().tagsCode())) {
                continue;
            }
            Optional<ByteBuffer> message = commitLog.slice(entry.get().physicalOffset(), entry.get().size());
            if (message.isEmpty()) {
                outOfRange = true;
                continue;
            }
            if (!messages.isEmpty() && bytes + entry.get().size() > maxBytes) {
                break;
            }
            if (filter.matches(StoredMessageView.over(message.get()))) {
                messages.add(message.get());
                offsets.add(next);
                bytes += entry.get().size();
            }
        }
        GetMessageStatus status = !messages.isEmpty() ? GetMessageStatus.FOUND
            : outOfRange ? GetMessageStatus.OFFSET_OUT_OF_RANGE : GetMessageStatus.NO_MATCHED_MESSAGE;
        return new GetMessageResult(status, messages, offsets, next, queue.minOffset(), max);
    }

    /**
     * The smallest queue offset whose message was stored at or after {@code timestamp}: the min offset when all are
     * later, the next offset when none is. Binary search over the consume queue; store timestamps are non-decreasing.
     */
    long offsetForTimestamp(String topic, int queueId, long timestamp) {
        Optional<ConsumeQueue> found = consumeQueues.find(topic, queueId);
        if (found.isEmpty()) {
            return 0;
        }
        ConsumeQueue queue = found.get();
        long low = queue.minOffset();
        long high = queue.nextOffset();
        while (low < high) {
            long middle = (low + high) >>> 1;
            if (storeTimestamp(queue, middle) < timestamp) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        return low;
    }

    private long storeTimestamp(ConsumeQueue queue, long offset) {
        return queue.entry(offset)
            .flatMap(e -> commitLog.slice(e.physicalOffset(), e.size()))
            .map(bytes -> StoredMessageView.over(bytes).storeTimestamp())
            .orElse(Long.MIN_VALUE);
    }
}
