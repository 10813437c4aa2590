package dev.ferry.ra.management;

/** The embedded engine as management tools see it: the broker's figures, as its metrics publish them. */
public interface EngineStatusMBean {
    String getNameServerAddress();

    int getTopics();

    int getConsumerGroups();

    /** Messages producers stored since the engine started. */
    long getMessagesIn();

    /** Messages consumers pulled since the engine started. */
    long getMessagesOut();

    int getProducerConnections();

    int getConsumerConnections();

    /** Messages online groups have yet to consume, over all their topics. */
    long getConsumerLag();

    /** Messages online groups pulled and have not committed. */
    long getConsumerInFlight();

    long getFlushBehindBytes();

    long getDispatchBehindBytes();
}
