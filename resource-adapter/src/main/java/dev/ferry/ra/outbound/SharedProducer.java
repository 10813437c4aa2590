package dev.ferry.ra.outbound;

import dev.ferry.client.FerryClient;
import dev.ferry.client.Producer;
import java.util.Objects;

/**
 * The one producer (and its client) behind every managed connection of one managed connection factory.
 * Closed when the adapter stops. Thread-safe.
 */
final class SharedProducer implements AutoCloseable {
    private final FerryClient client;
    private final Producer producer;

    SharedProducer(FerryClient client, Producer producer) {
        this.client = Objects.requireNonNull(client, "client");
        this.producer = Objects.requireNonNull(producer, "producer");
    }

    Producer producer() {
        return producer;
    }

    @Override
    public void close() {
        producer.close();
        client.close();
    }

    @Override
    public String toString() {
        return "SharedProducer[" + producer.config().group() + "@" + client.clientId() + "]";
    }
}
