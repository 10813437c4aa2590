package dev.ferry.strategies.offset;

import dev.ferry.api.MessageQueue;
import dev.ferry.spi.BrokerOffsetAccess;
import dev.ferry.spi.BrokerOffsetException;
import java.lang.System.Logger.Level;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Keeps a clustering group's offsets on the brokers, through the client's {@link BrokerOffsetAccess}.
 * A failed query reads as {@link #READ_FAILED}, never as {@link #NO_OFFSET}, so a timeout cannot reset a
 * consumer to the first or last offset.
 */
final class BrokerOffsetStore extends TableBackedOffsetStore {

    private static final System.Logger LOG = System.getLogger(BrokerOffsetStore.class.getName());

    private final String group;
    private final BrokerOffsetAccess brokers;

    BrokerOffsetStore(String group, BrokerOffsetAccess brokers) {
        this.group = group;
        this.brokers = brokers;
    }

    @Override
    public void load() {
        // Nothing to load: offsets are read from the broker per queue when a queue is assigned.
    }

    @Override
    long readFromStore(MessageQueue queue) {
        try {
            OptionalLong offset = brokers.query(queue);
            return offset.isPresent() ? offset.getAsLong() : NO_OFFSET;
        } catch (BrokerOffsetException e) {
            LOG.log(Level.WARNING, "Could not read the offset of group " + group + " on " + queue
                    + "; will retry, not reset", e);
            return READ_FAILED;
        }
    }

    @Override
    public void persist(MessageQueue queue) {
        Long offset = table.get(queue);
        if (offset != null) {
            commit(queue, offset);
        }
    }

    @Override
    public void persistAll(Set<MessageQueue> assigned) {
        table.forEach((queue, offset) -> {
            if (assigned.contains(queue)) {
                commit(queue, offset);
            } else {
                // The queue went to another consumer, which now commits its offset.
                table.remove(queue, offset);
            }
        });
    }

    private void commit(MessageQueue queue, long offset) {
        try {
            brokers.commit(queue, offset);
        } catch (BrokerOffsetException e) {
            LOG.log(Level.WARNING, "Could not commit offset " + offset + " of group " + group + " on " + queue
                    + "; the next persist retries", e);
        }
    }
}
