package dev.ferry.liberty.support;

import dev.ferry.client.ClientConfig;
import dev.ferry.client.FerryClient;
import dev.ferry.client.Producer;
import dev.ferry.client.ProducerConfig;
import java.nio.file.Path;
import java.time.Duration;

/** The test's own view of a cluster the adapter uses: a Ferry client of its name server. */
public final class Engine implements AutoCloseable {
    private final FerryClient client;
    private final Producer producer;

    public Engine(String nameServer, Path offsetDirectory) {
        this.client = new FerryClient(ClientConfig.builder(nameServer).clientIp("127.0.0.1")
                .localOffsetDirectory(offsetDirectory).offsetPersistInterval(Duration.ofSeconds(1)).build());
        this.producer = client.producer(ProducerConfig.builder("liberty-test-producer").build());
    }

    public FerryClient client() {
        return client;
    }

    public Producer producer() {
        return producer;
    }

    @Override
    public void close() {
        client.close();
    }
}
