package dev.ferry.client;

import dev.ferry.client.peer.ClusterUnderTest;
import dev.ferry.client.peer.ClusterUnderTestExtension;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Base of the tests that run against a {@link ClusterUnderTest} (the shared Apache peer): one
 * {@link FerryClient} per class, more on demand, all closed after the class.
 */
@Tag("integration")
@ExtendWith(ClusterUnderTestExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AgainstCluster {
    @TempDir
    Path directory;
    ClusterUnderTest cluster;
    FerryClient client;
    private final List<FerryClient> clients = new ArrayList<>();

    @BeforeAll
    void connect(ClusterUnderTest cluster) {
        this.cluster = cluster;
        this.client = newClient();
    }

    @AfterAll
    void closeClients() {
        clients.forEach(FerryClient::close);
    }

    /** Another client of the cluster, closed after the class. */
    FerryClient newClient() {
        FerryClient another = ClientTestSupport.client(cluster, directory);
        clients.add(another);
        return another;
    }

    /** A producer of a fresh group on the class's client. */
    Producer producer() {
        return client.producer(ProducerConfig.builder(ClientTestSupport.unique("PG")).build());
    }
}
