package dev.ferry.ra.management;

/**
 * An activation as management tools see it: what it consumes, whether it can, what it has done; and what an
 * operator may do to it. A queue is named {@code topic:brokerName:queueId}, as {@link #getPausedQueues()} shows it.
 */
public interface ActivationStatusMBean {
    String getConsumerGroup();

    String getTopic();

    String getEndpoint();

    /** Whether the activation consumes now (not when paused, nor when the cluster refused its user). */
    boolean isConsuming();

    /** Whether an operator paused the bean's deliveries ({@link #pause()}, or the server's pause command). */
    boolean isPaused();

    /** Whether its name servers answer; while they do not, {@link #getNameServerProblem()} says why. */
    boolean isNameServerReachable();

    String getNameServerProblem();

    /** Deliveries the endpoint took since the activation's consumer started. */
    long getDelivered();

    /** Deliveries the endpoint failed (threw for). */
    long getFailed();

    /** Of the failed, those delivered again later. */
    long getRetried();

    /** Of the failed, those that used their last delivery and went to the dead-letter queue. */
    long getDeadLettered();

    /** Messages pulled and not yet delivered. */
    long getInFlight();

    /** Messages the broker holds beyond what the activation committed. */
    long getLag();

    /**
     * The queues paused on a poison message ({@code pauseQueueAfterFailures}), one line each: the queue, the
     * message id and offset, its failures in a row, when, and the last exception.
     */
    String[] getPausedQueues();

    /** Stops deliveries to the bean as a graceful stop does: offsets persisted, queue locks released. */
    void pause();

    /** Starts deliveries to a paused bean again. */
    void resume();

    /** Delivers a paused queue's poison message again and goes on with the queue. */
    void resumeQueue(String queue);

    /** Moves a paused queue's poison message to the group's dead-letter queue and goes on with the queue. */
    void skipMessage(String queue);

    /**
     * Moves the group's offsets on the topic to the first message stored at or after {@code timestamp} (ISO-8601,
     * such as {@code 2026-12-01T10:00:00Z}, or epoch milliseconds); every consumer of the group re-reads from there.
     *
     * @return the queues moved and their new offsets
     */
    String replayFrom(String timestamp);

    /**
     * Moves the group's offsets of the queues given, {@code brokerName:queueId=offset} separated by commas; every
     * consumer of the group re-reads from there.
     *
     * @return the queues moved and their new offsets
     */
    String replayOffsets(String offsets);
}
