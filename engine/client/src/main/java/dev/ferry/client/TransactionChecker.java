package dev.ferry.client;

import dev.ferry.api.ReceivedMessage;

/**
 * Answers a broker that asks what became of a half message whose transaction was left
 * {@link TransactionState#UNKNOWN} (or whose END_TRANSACTION was lost). Called on the producer's own thread.
 */
@FunctionalInterface
public interface TransactionChecker {

    /**
     * @param message the half message
     * @return its transaction's outcome; an exception counts as {@link TransactionState#UNKNOWN}
     * @throws Exception when the outcome is not known
     */
    TransactionState check(ReceivedMessage message) throws Exception;
}
