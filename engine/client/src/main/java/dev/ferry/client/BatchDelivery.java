package dev.ferry.client;

import dev.ferry.api.BatchMessageListener;
import dev.ferry.api.BatchResult;
import dev.ferry.api.MessageListener;
import dev.ferry.api.ReceivedMessage;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Hands a batch (messages of one queue, in its order) to the application and says which of them failed: how the
 * consume services see a {@link MessageListener} or a {@link BatchMessageListener} alike. Never throws for the
 * application's failures; they are in the outcome.
 */
@FunctionalInterface
interface BatchDelivery {
    System.Logger LOG = System.getLogger(BatchDelivery.class.getName());

    Outcome deliver(List<ReceivedMessage> batch);

    /**
     * What became of a batch.
     *
     * @param failed the messages to deliver again, in batch order; empty when all were consumed
     * @param failure why the last of them failed; {@code null} when none did
     */
    record Outcome(List<ReceivedMessage> failed, Throwable failure) {
        static final Outcome CONSUMED = new Outcome(List.of(), null);

        public Outcome {
            failed = List.copyOf(failed);
            if (!failed.isEmpty()) {
                Objects.requireNonNull(failure, "failure");
            }
        }

        boolean consumed(ReceivedMessage message) {
            for (ReceivedMessage f : failed) {
                if (f == message) {
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * A per-message listener: each message of the batch in turn. With {@code stopAtFirstFailure} (orderly) the
     * messages after a failed one are not offered and count as failed, so the queue's order holds.
     */
    static BatchDelivery of(MessageListener listener, boolean stopAtFirstFailure) {
        Objects.requireNonNull(listener, "listener");
        return batch -> {
            List<ReceivedMessage> failed = new ArrayList<>(0);
            Throwable failure = null;
            for (int i = 0; i < batch.size(); i++) {
                ReceivedMessage message = batch.get(i);
                try {
                    listener.onMessage(message);
                } catch (Throwable e) {
                    failure = logged(e, message.msgId());
                    if (stopAtFirstFailure) {
                        failed.addAll(batch.subList(i, batch.size()));
                        break;
                    }
                    failed.add(message);
                }
            }
            return failed.isEmpty() ? Outcome.CONSUMED : new Outcome(failed, failure);
        };
    }

    /** A batch listener: its result names the first failed message; an exception fails the whole batch. */
    static BatchDelivery of(BatchMessageListener listener) {
        Objects.requireNonNull(listener, "listener");
        return batch -> {
            BatchResult result;
            try {
                result = listener.onMessages(batch);
            } catch (Throwable e) {
                return new Outcome(batch, logged(e, batch.get(0).msgId() + " and " + (batch.size() - 1) + " more"));
            }
            if (result == null) {
                return Outcome.CONSUMED;
            }
            int from;
            try {
                from = result.failedIndexIn(batch);
            } catch (IllegalArgumentException e) {
                // a listener naming a message it was not given: nothing it did can be trusted as consumed
                return new Outcome(batch, logged(e, batch.get(0).msgId() + " and " + (batch.size() - 1) + " more"));
            }
            if (from == batch.size()) {
                return Outcome.CONSUMED;
            }
            ReceivedMessage first = batch.get(from);
            return new Outcome(batch.subList(from, batch.size()), new FailedFrom(first));
        };
    }

    private static Throwable logged(Throwable e, String what) {
        if (e instanceof Error) {
            LOG.log(Level.WARNING, "listener failed on " + what + " with an error; will reconsume", e);
        } else {
            LOG.log(Level.DEBUG, "listener failed on " + what + "; will reconsume: " + e);
        }
        return e;
    }

    /** Why a batch listener's message failed when the listener said so without an exception. */
    final class FailedFrom extends Exception {
        private static final long serialVersionUID = 1L;

        FailedFrom(ReceivedMessage message) {
            super("the batch listener returned failedFrom(" + message.msgId() + ")", null, false, false);
        }
    }
}
