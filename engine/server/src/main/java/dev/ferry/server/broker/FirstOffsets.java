package dev.ferry.server.broker;

import dev.ferry.store.MessageStore;
import java.util.OptionalLong;

/**
 * The offset a consumer group with no committed offset on a queue is told to start at, by {@link FirstOffsetRule}:
 * 0 for a young queue, otherwise none, and the client starts where its consume-from setting says.
 */
final class FirstOffsets {
    /** What the rule reads of the store. */
    interface Queues {
        long minOffset(String topic, int queueId);

        /** Where the message at {@code queueOffset} starts in the commit log, if the queue has it. */
        OptionalLong physicalOffsetOf(String topic, int queueId, long queueOffset);

        /** One past the commit log's last byte. */
        long commitLogEndOffset();
    }

    /** The store's queues as the rule reads them. */
    static Queues queuesOf(MessageStore store) {
        return new Queues() {
            @Override
            public long minOffset(String topic, int queueId) {
                return store.minOffset(topic, queueId);
            }

            @Override
            public OptionalLong physicalOffsetOf(String topic, int queueId, long queueOffset) {
                return store.physicalOffsetOf(topic, queueId, queueOffset);
            }

            @Override
            public long commitLogEndOffset() {
                return store.commitLogEndOffset();
            }
        };
    }

    private final Queues queues;
    private final FirstOffsetRule rule;

    FirstOffsets(Queues queues, FirstOffsetRule rule) {
        this.queues = queues;
        this.rule = rule;
    }

    /**
     * 0 when the queue is young: it still starts at 0 and its first message lies within the rule's memory of the
     * commit log's end. Empty when the rule is strict, when the client asked not to be given 0
     * ({@code setZeroIfNotFound=false}), or when the queue is empty or old.
     */
    OptionalLong startOf(String topic, int queueId, Boolean setZeroIfNotFound) {
        if (rule.strict() || Boolean.FALSE.equals(setZeroIfNotFound) || queues.minOffset(topic, queueId) > 0) {
            return OptionalLong.empty();
        }
        OptionalLong first = queues.physicalOffsetOf(topic, queueId, 0);
        if (first.isEmpty() || queues.commitLogEndOffset() - first.getAsLong() > rule.inMemoryBytes()) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(0);
    }
}
