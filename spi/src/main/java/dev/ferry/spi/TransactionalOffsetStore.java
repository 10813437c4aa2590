package dev.ferry.spi;

import dev.ferry.api.MessageQueue;

/**
 * An offset store that records consumption inside the transaction a message is delivered in, so that the offset
 * commits or rolls back with the consumer's own work: processed once, whatever crashes. The resource adapter calls
 * {@link #claim} on the delivery's thread after the container began the bean's transaction and before the bean runs;
 * it needs a bean delivered in a transaction and orderly consumption (one message of a queue at a time, in order).
 * The store also answers {@link #read} from where it records, so that a consumer taking over a queue continues where
 * the last committed transaction left it.
 */
public interface TransactionalOffsetStore extends OffsetStore {

    /**
     * In the calling thread's transaction, records that the message at {@code offset} of {@code queue} is consumed
     * (the queue's next offset becomes {@code offset + 1}) unless a committed transaction did so already. Holds the
     * queue's record locked until the transaction ends, so two consumers never claim one message.
     *
     * @param queue the message's queue
     * @param offset the message's offset in it
     * @return {@code true} when the message is to be consumed now; {@code false} when it was consumed before (the
     *     caller skips it)
     * @throws RuntimeException when the claim cannot be recorded: the delivery fails and its transaction rolls back
     */
    boolean claim(MessageQueue queue, long offset);
}
