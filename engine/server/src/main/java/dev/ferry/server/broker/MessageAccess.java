package dev.ferry.server.broker;

import dev.ferry.format.StoredMessageView;
import dev.ferry.remoting.RemoteChannel;
import dev.ferry.remoting.RemotingCommand;

/**
 * Whether a request may have the message it named only by a commit-log offset or an id: a view, a send-back, the end
 * of a transaction. Nothing in such a request says what the message is, so the guard in front of the processors
 * cannot decide; the processor asks here once it has found the message, before it answers with it or acts on it.
 * The same goes for the half messages the broker sends producers to decide. What is allowed is decided where access
 * is controlled ({@link Broker#controlAccess}); processors only ask.
 */
@FunctionalInterface
interface MessageAccess {
    /** Every request may have every message: access is not controlled. */
    MessageAccess OPEN = (channel, request, message) -> null;

    /** @return {@code null} when the request may have {@code message}, else the answer that refuses it */
    RemotingCommand refusal(RemoteChannel channel, RemotingCommand request, StoredMessageView message);

    /**
     * Whether {@code half} may be sent to {@code producer} for it to decide (CHECK_TRANSACTION_STATE); where access is
     * not controlled, always.
     */
    default boolean mayDecide(RemoteChannel producer, StoredMessageView half) {
        return true;
    }
}
