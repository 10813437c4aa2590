package dev.ferry.server.broker;

import dev.ferry.store.GetMessageResult;
import dev.ferry.store.MessageFilterPredicate;
import dev.ferry.store.MessageStore;

/** When a queue's messages were stored, for the admin answers that show it. */
final class QueueTimes {
    private QueueTimes() {
    }

    /** Store time of the message at {@code queueOffset}, 0 when the queue has none there. */
    static long storeTime(MessageStore store, String topic, int queueId, long queueOffset) {
        if (queueOffset < 0 || queueOffset < store.minOffset(topic, queueId)
                || queueOffset >= store.nextOffset(topic, queueId)) {
            return 0;
        }
        GetMessageResult result = store.getMessages(topic, queueId, queueOffset, 1, 1 << 20,
                MessageFilterPredicate.ALL);
        return result.views().isEmpty() ? 0 : result.views().get(0).storeTimestamp();
    }
}
