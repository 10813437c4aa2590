package dev.ferry.client;

import dev.ferry.api.MessageQueue;

/**
 * What rebalance must do besides creating and dropping process queues: orderly consumers lock a queue on
 * its broker before reading it, and persist-then-unlock it under the consume lock when it goes away.
 */
interface QueueGate {

    /** No conditions: concurrent and broadcasting consumers. */
    QueueGate OPEN = new QueueGate() {
        @Override
        public boolean admit(MessageQueue queue) {
            return true;
        }

        @Override
        public void opened(ProcessQueue queue) {
            // nothing to record
        }

        @Override
        public void release(ProcessQueue queue, Runnable persistOffset) {
            persistOffset.run();
        }
    };

    /** Whether the consumer may start reading {@code queue} now; false means "try at the next rebalance". */
    boolean admit(MessageQueue queue);

    /** The process queue of an admitted queue was created. */
    void opened(ProcessQueue queue);

    /** Called for a dropped queue: persists its offset ({@code persistOffset}) and lets it go. */
    void release(ProcessQueue queue, Runnable persistOffset);
}
