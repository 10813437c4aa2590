package dev.ferry.api;

import java.util.List;

/**
 * Receives the messages of a push consumer a batch at a time: up to the consumer's batch size, all from one queue
 * and in that queue's order.
 *
 * <p>What the call returns says what was consumed: {@link BatchResult#consumed()} (or {@code null}) takes the whole
 * batch, {@link BatchResult#failedFrom(ReceivedMessage)} takes the messages before the one named and has that one
 * and every later one delivered again. An exception has the whole batch delivered again. Called concurrently from
 * the consumer's threads, except that an orderly consumer never runs two batches of one queue at once.
 */
@FunctionalInterface
public interface BatchMessageListener {

    /**
     * @param messages the batch, never empty; do not modify
     * @return what was consumed
     * @throws Exception to have the whole batch delivered again later
     */
    BatchResult onMessages(List<ReceivedMessage> messages) throws Exception;
}
