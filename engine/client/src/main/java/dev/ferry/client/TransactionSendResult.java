package dev.ferry.client;

import dev.ferry.api.SendResult;
import java.util.Objects;

/**
 * What {@link Producer#sendInTransaction} did.
 *
 * @param sendResult how the half message was stored
 * @param state the local transaction's outcome, sent to the broker
 */
public record TransactionSendResult(SendResult sendResult, TransactionState state) {

    public TransactionSendResult {
        Objects.requireNonNull(sendResult, "sendResult");
        Objects.requireNonNull(state, "state");
    }
}
