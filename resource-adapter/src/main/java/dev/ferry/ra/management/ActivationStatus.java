package dev.ferry.ra.management;

import dev.ferry.client.FerryClient;
import dev.ferry.client.PushConsumer;

/** The management view of one activation, read from its consumer and client when asked. */
public final class ActivationStatus implements ActivationStatusMBean {
    private final String group;
    private final String topic;
    private final String endpoint;
    private final FerryClient client;
    /** {@code null} when the activation does not consume. */
    private final PushConsumer consumer;

    public ActivationStatus(String group, String topic, String endpoint, FerryClient client, PushConsumer consumer) {
        this.group = group;
        this.topic = topic;
        this.endpoint = endpoint;
        this.client = client;
        this.consumer = consumer;
    }

    private PushConsumer.Stats stats() {
        return consumer == null ? new PushConsumer.Stats(0, 0, 0, 0, 0, 0) : consumer.stats();
    }

    @Override
    public String getConsumerGroup() {
        return group;
    }

    @Override
    public String getTopic() {
        return topic;
    }

    @Override
    public String getEndpoint() {
        return endpoint;
    }

    @Override
    public boolean isConsuming() {
        return consumer != null;
    }

    @Override
    public boolean isNameServerReachable() {
        return client.nameServerReachable();
    }

    @Override
    public String getNameServerProblem() {
        return client.nameServerProblem().orElse("");
    }

    @Override
    public long getDelivered() {
        return stats().delivered();
    }

    @Override
    public long getFailed() {
        return stats().failed();
    }

    @Override
    public long getRetried() {
        return stats().retried();
    }

    @Override
    public long getDeadLettered() {
        return stats().deadLettered();
    }

    @Override
    public long getInFlight() {
        return stats().inFlight();
    }

    @Override
    public long getLag() {
        return stats().lag();
    }
}
