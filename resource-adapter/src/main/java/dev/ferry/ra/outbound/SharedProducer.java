package dev.ferry.ra.outbound;

import dev.ferry.client.FerryClient;
import dev.ferry.client.Producer;
import dev.ferry.remoting.Credentials;
import java.util.Objects;
import java.util.Optional;

/**
 * The one producer (and its client) behind every managed connection of one managed connection factory.
 * Closed when the adapter stops. Thread-safe.
 */
final class SharedProducer implements AutoCloseable {
    private final FerryClient client;
    private final Producer producer;
    private final Optional<Credentials> credentials;

    SharedProducer(FerryClient client, Producer producer, Optional<Credentials> credentials) {
        this.client = Objects.requireNonNull(client, "client");
        this.producer = Objects.requireNonNull(producer, "producer");
        this.credentials = Objects.requireNonNull(credentials, "credentials");
    }

    Optional<Credentials> credentials() {
        return credentials;
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
        return "SharedProducer[" + producer.config().group() + "@" + client.clientId()
                + credentials.map(c -> ", user " + c.accessKey()).orElse("") + "]";
    }
}
