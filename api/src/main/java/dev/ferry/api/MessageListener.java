package dev.ferry.api;

/**
 * Receives the messages of a push consumer.
 *
 * <p>A normal return acknowledges the message. An exception means "consume it again later": a clustering
 * consumer sends the message back to the broker, which redelivers it with a growing delay and an increased
 * {@link ReceivedMessage#reconsumeTimes()}. Called concurrently from the consumer's threads.
 */
@FunctionalInterface
public interface MessageListener {

    /**
     * @param message the message
     * @throws Exception to have the message delivered again later
     */
    void onMessage(ReceivedMessage message) throws Exception;
}
