package dev.ferry.client;

import dev.ferry.api.ReceivedMessage;

/** Hands a message the consumer failed on back to its broker, for a retry later or the dead-letter queue. */
@FunctionalInterface
interface SendBack {
    /**
     * @param delayLevel 0 lets the broker choose from the reconsume count, -1 sends it to the dead-letter queue
     * @throws RuntimeException when the broker did not take it
     */
    void sendBack(ReceivedMessage message, int maxReconsumeTimes, int delayLevel);
}
