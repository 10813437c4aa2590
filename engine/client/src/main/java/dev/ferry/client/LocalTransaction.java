package dev.ferry.client;

import dev.ferry.api.Message;

/** The application's local transaction, run once its half message is stored. */
@FunctionalInterface
public interface LocalTransaction {

    /**
     * @param message the message that was stored as a half message
     * @return whether to deliver it; an exception counts as {@link TransactionState#UNKNOWN}
     * @throws Exception when the outcome is not known
     */
    TransactionState execute(Message message) throws Exception;
}
