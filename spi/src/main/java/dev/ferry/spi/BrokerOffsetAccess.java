package dev.ferry.spi;

import dev.ferry.api.MessageQueue;
import java.util.OptionalLong;

/**
 * How an offset store reaches the brokers: implemented by the client (QUERY_CONSUMER_OFFSET and
 * UPDATE_CONSUMER_OFFSET for the store's consumer group), so offset stores never see the remoting
 * layer. Calls may block for the client's request timeout; they are thread-safe.
 */
public interface BrokerOffsetAccess {

    /**
     * Asks the broker hosting {@code queue} for the group's committed offset.
     *
     * @param queue the queue
     * @return the next offset to consume, or empty when the broker has none for the group
     * @throws BrokerOffsetException when the broker could not answer; never means "no offset"
     */
    OptionalLong query(MessageQueue queue) throws BrokerOffsetException;

    /**
     * Tells the broker hosting {@code queue} the group's offset (one-way: returns once sent).
     *
     * @param queue the queue
     * @param nextOffset the next offset to consume
     * @throws BrokerOffsetException when the request could not be sent
     */
    void commit(MessageQueue queue, long nextOffset) throws BrokerOffsetException;
}
