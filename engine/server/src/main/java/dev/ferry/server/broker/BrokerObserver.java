package dev.ferry.server.broker;

/**
 * Told of what the broker does as it happens, for metrics: each put counted, each transaction committed, each topic
 * or subscription group creation request. Called on the broker's own threads, so it must only record.
 */
public interface BrokerObserver {
    /** Observes nothing. */
    BrokerObserver NONE = new BrokerObserver() {
    };

    /** A put the broker counted: its topic, message type, number of messages and stored bytes. */
    default void stored(String topic, String messageType, int count, long bytes) {
    }

    /** A committed transaction: its topic and how long after the producer prepared it. */
    default void committed(String topic, long millisSincePrepared) {
    }

    /** A topic creation request: whether it succeeded, whether of a system topic, how long it took. */
    default void topicCreated(boolean success, boolean system, long millis) {
    }

    /** A subscription group creation request: whether it succeeded and how long it took. */
    default void groupCreated(boolean success, long millis) {
    }
}
