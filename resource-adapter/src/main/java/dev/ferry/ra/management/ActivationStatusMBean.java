package dev.ferry.ra.management;

/** An activation as management tools see it: what it consumes, whether it can, and what it has done. */
public interface ActivationStatusMBean {
    String getConsumerGroup();

    String getTopic();

    String getEndpoint();

    /** Whether the activation consumes at all (the cluster may have refused its user). */
    boolean isConsuming();

    /** Whether its name servers answer; while they do not, {@link #getNameServerProblem()} says why. */
    boolean isNameServerReachable();

    String getNameServerProblem();

    /** Deliveries the endpoint took since the activation started. */
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
}
