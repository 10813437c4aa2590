package dev.ferry.ra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ferry.api.FerryConnection;
import dev.ferry.api.FerryConnectionFactory;
import dev.ferry.api.Message;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.format.Clock;
import dev.ferry.ra.inbound.FerryActivationSpec;
import dev.ferry.server.FerryServer;
import dev.ferry.server.FerryServerConfig;
import jakarta.resource.spi.ResourceAdapterInternalException;
import jakarta.resource.spi.work.HintsContext;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Starting, stopping and restarting adapters; remote mode; two adapters side by side. */
@Tag("integration")
class AdapterLifecycleTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path directory;

    private static Message text(String topic, String body) {
        return Message.builder(topic).body(body.getBytes(StandardCharsets.UTF_8)).build();
    }

    private static String text(ReceivedMessage message) {
        return new String(message.body(), StandardCharsets.UTF_8);
    }

    private static void send(FerryConnectionFactory factory, Message message) {
        try (FerryConnection connection = factory.getConnection()) {
            connection.send(message);
        }
    }

    @Test
    void shouldKeepMessagesAndCommittedOffsetsAcrossStopAndStart() throws Exception {
        Path store = directory.resolve("store");
        String topic = TestAdapters.unique("Persist");
        String group = TestAdapters.unique("CG");

        FakeBootstrapContext firstContext = new FakeBootstrapContext();
        FerryResourceAdapter first = TestAdapters.embedded(store);
        first.start(firstContext);
        FerryConnectionFactory firstFactory = TestAdapters.connectionFactory(first);
        for (int i = 0; i < 3; i++) {
            send(firstFactory, text(topic, "old" + i));
        }
        RecordingEndpointFactory before = RecordingEndpointFactory.accepting();
        FerryActivationSpec firstSpec = TestAdapters.spec(first, topic, group);
        first.endpointActivation(before, firstSpec);
        await().atMost(WAIT).until(() -> before.released() == 3);
        first.stop(); // deactivates (offsets persisted), closes the producer, stops the engine
        assertThat(first.activationCount()).isZero();
        firstContext.fakeWorkManager().assertNoWorkOutlivesStop();
        TestAdapters.awaitNoAdapterThreads();

        FakeBootstrapContext secondContext = new FakeBootstrapContext();
        FerryResourceAdapter second = TestAdapters.embedded(store);
        second.start(secondContext);
        try {
            FerryConnectionFactory secondFactory = TestAdapters.connectionFactory(second);
            send(secondFactory, text(topic, "new"));
            RecordingEndpointFactory after = RecordingEndpointFactory.accepting();
            second.endpointActivation(after, TestAdapters.spec(second, topic, group));
            await().atMost(WAIT).until(() -> after.released() >= 1);
            Thread.sleep(300);
            assertThat(after.received()).extracting(AdapterLifecycleTest::text).containsExactly("new");

            RecordingEndpointFactory newGroup = RecordingEndpointFactory.accepting();
            second.endpointActivation(newGroup, TestAdapters.spec(second, topic, TestAdapters.unique("CG")));
            await().atMost(WAIT).until(() -> newGroup.released() == 4);
            assertThat(newGroup.received()).extracting(AdapterLifecycleTest::text)
                    .containsExactlyInAnyOrder("old0", "old1", "old2", "new");
        } finally {
            second.stop();
        }
        secondContext.fakeWorkManager().assertNoWorkOutlivesStop();
    }

    @Test
    void shouldStartEveryThreadThroughAShortWorkAndKeepNoServerThread() throws Exception {
        FakeBootstrapContext context = new FakeBootstrapContext();
        FerryResourceAdapter adapter = TestAdapters.embedded(directory.resolve("spawned"));
        adapter.start(context);
        try {
            // The default placement: each work starts the adapter's thread and ends, so a server that waits
            // for its busy threads when it stops (Liberty's quiesce) has none of the adapter's to wait for.
            await().atMost(WAIT).until(() -> context.fakeWorkManager().running() == 0);
            List<String> live = TestAdapters.liveAdapterThreads();
            assertThat(live).isNotEmpty();
            assertThat(adapter.runtime().runningThreadNames()).containsAll(live);
            assertThat(context.fakeWorkManager().hints()).hasSizeGreaterThanOrEqualTo(live.size())
                    .allSatisfy(h -> assertThat(h.getHints().get(HintsContext.LONGRUNNING_HINT)).isEqualTo(false));
        } finally {
            adapter.stop();
        }
        TestAdapters.awaitNoAdapterThreads();
    }

    @Test
    void shouldFailToStartWhenTheWorkManagerRejectsWork() {
        FakeBootstrapContext context = new FakeBootstrapContext();
        context.fakeWorkManager().rejectEverything();
        FerryResourceAdapter adapter = TestAdapters.embedded(directory);
        assertThatThrownBy(() -> adapter.start(context))
                .isInstanceOf(ResourceAdapterInternalException.class)
                .hasMessageContaining("FERRY-RA-0003")
                .hasMessageContaining("FERRY-RA-0101 the WorkManager rejected thread");
        assertThatThrownBy(adapter::runtime).hasMessageContaining("not started");
        assertThat(context.fakeWorkManager().running()).isZero();
    }

    @Test
    void shouldFailToStartOnAPortInUse() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            FakeBootstrapContext context = new FakeBootstrapContext();
            FerryResourceAdapter adapter = TestAdapters.embedded(directory);
            adapter.setNamesrvPort(taken.getLocalPort());
            assertThatThrownBy(() -> adapter.start(context))
                    .isInstanceOf(ResourceAdapterInternalException.class)
                    .hasMessageContaining("FERRY-RA-0003")
                    .hasMessageContaining("name server port " + taken.getLocalPort());
            await().atMost(WAIT).until(() -> context.fakeWorkManager().running() == 0);
        }
    }

    @Test
    void shouldApplyTheEngineConfigFileToTheEmbeddedEngine() throws Exception {
        java.nio.file.Path file = directory.resolve("engine.properties");
        java.nio.file.Files.writeString(file, "maxTopics=7\nmaxConnections=99\n");
        FerryResourceAdapter adapter = TestAdapters.embedded(directory.resolve("engine-config"));
        adapter.setEngineConfig(file.toString());
        adapter.setFlushMode("SYNC_FLUSH");
        adapter.setBrokerName("broker-ra");
        adapter.start(new FakeBootstrapContext());
        try {
            dev.ferry.server.FerryServer engine = adapter.runtime().embeddedEngine().orElseThrow().server();
            assertThat(engine.config().broker().limits().maxTopics()).isEqualTo(7);
            assertThat(engine.config().broker().remotingLimits().maxConnections()).isEqualTo(99);
            assertThat(engine.config().store().flushMode()).isEqualTo(dev.ferry.store.FlushMode.SYNC_FLUSH);
            assertThat(engine.config().broker().brokerName()).isEqualTo("broker-ra");
        } finally {
            adapter.stop();
        }
    }

    @Test
    void shouldRefuseAnEngineConfigFileWithAnUnknownKeyABadValueOrAnAdapterKey() throws Exception {
        java.nio.file.Path file = directory.resolve("bad-engine.properties");
        java.nio.file.Files.writeString(file, "maxTopix=7\n");
        FerryResourceAdapter adapter = TestAdapters.embedded(directory.resolve("bad-engine"));
        adapter.setEngineConfig(file.toString());
        assertThatThrownBy(() -> adapter.start(new FakeBootstrapContext()))
                .isInstanceOf(ResourceAdapterInternalException.class).hasMessageContaining("FERRY-RA-0002")
                .hasMessageContaining("engineConfig").hasMessageContaining("unknown key 'maxTopix'");

        java.nio.file.Files.writeString(file, "maxTopics=-3\nbrokerPort=1\n");
        assertThatThrownBy(() -> adapter.start(new FakeBootstrapContext()))
                .hasMessageContaining("maxTopics = -3: must be positive")
                .hasMessageContaining("sets brokerPort, which is the adapter property brokerPort");

        // Apache's names of the adapter's properties count as theirs
        java.nio.file.Files.writeString(file, "flushDiskType=SYNC_FLUSH\nstorePathRootDir=/elsewhere\n");
        assertThatThrownBy(() -> adapter.start(new FakeBootstrapContext()))
                .hasMessageContaining("sets flushDiskType, which is the adapter property flushMode")
                .hasMessageContaining("sets storePathRootDir, which is the adapter property storeDir");
    }

    @Test
    void shouldNameEveryBadAdapterProperty() {
        FerryResourceAdapter adapter = new FerryResourceAdapter();
        adapter.setMode("sideways");
        adapter.setNameServer("no-port");
        adapter.setHost(" ");
        adapter.setNamesrvPort(-1);
        adapter.setBrokerPort(70000);
        adapter.setPluginDir(directory.resolve("missing").toString());
        adapter.setCommitLogSegmentSize(10);
        adapter.setMessageDelayLevel("1s soon");
        adapter.setThreadPlacement("elsewhere");
        adapter.setFlushMode("SOMETIMES");
        adapter.setBrokerName("broker a");
        adapter.setClusterName("");
        assertThatThrownBy(() -> adapter.start(new FakeBootstrapContext()))
                .isInstanceOf(ResourceAdapterInternalException.class)
                .hasMessageContaining("FERRY-RA-0002")
                .hasMessageContaining("12 bad properties")
                .hasMessageContaining("flushMode = 'SOMETIMES': must be ASYNC_FLUSH or SYNC_FLUSH")
                .hasMessageContaining("brokerName = 'broker a': must be letters, digits, '%', '|', '.', '_' or '-'")
                .hasMessageContaining("clusterName = ''")
                .hasMessageContaining("threadPlacement = 'elsewhere'")
                .hasMessageContaining("messageDelayLevel = '1s soon'")
                .hasMessageContaining("mode = 'sideways'")
                .hasMessageContaining("nameServer = 'no-port'")
                .hasMessageContaining("host = ' '")
                .hasMessageContaining("namesrvPort = '-1'")
                .hasMessageContaining("brokerPort = '70000'")
                .hasMessageContaining("pluginDir = ")
                .hasMessageContaining("commitLogSegmentSize = '10'");

        FerryResourceAdapter remote = new FerryResourceAdapter();
        remote.setMode("REMOTE");
        assertThatThrownBy(() -> remote.start(new FakeBootstrapContext()))
                .hasMessageContaining("nameServer = 'null': remote mode needs the name servers");
    }

    @Test
    void shouldWorkInRemoteModeBesideAnEmbeddedAdapterOfAnotherCluster() throws Exception {
        FerryServerConfig config = FerryServerConfig.builder(directory.resolve("remote")).namesrvPort(0).brokerPort(0)
                .commitLogSegmentSize(16 * 1024 * 1024).build();
        try (FerryServer server = new FerryServer(config, Clock.system(), Executors.defaultThreadFactory())
                .start()) {
            FakeBootstrapContext remoteContext = new FakeBootstrapContext();
            FerryResourceAdapter remote = TestAdapters.remote(server.nameServerAddress(),
                    directory.resolve("remote-local"));
            FerryResourceAdapter embedded = TestAdapters.embedded(directory.resolve("embedded"));
            remote.start(remoteContext);
            embedded.start(new FakeBootstrapContext());
            try {
                assertThat(remote.runtime().embeddedEngine()).isEmpty();
                assertThat(remote.runtime().nameServerAddress()).isEqualTo(server.nameServerAddress());
                assertThat(remoteContext.fakeWorkManager().running()).as("remote mode starts no engine").isZero();

                String topic = TestAdapters.unique("Remote");
                String group = TestAdapters.unique("CG");
                send(TestAdapters.connectionFactory(remote), text(topic, "to-remote"));
                send(TestAdapters.connectionFactory(embedded), text(topic, "to-embedded"));
                RecordingEndpointFactory remoteEndpoints = RecordingEndpointFactory.accepting();
                RecordingEndpointFactory embeddedEndpoints = RecordingEndpointFactory.accepting();
                FerryActivationSpec remoteSpec = TestAdapters.spec(remote, topic, group);
                remote.endpointActivation(remoteEndpoints, remoteSpec);
                embedded.endpointActivation(embeddedEndpoints, TestAdapters.spec(embedded, topic, group));
                await().atMost(WAIT).until(() -> remoteEndpoints.released() == 1 && embeddedEndpoints.released() == 1);
                Thread.sleep(200);
                assertThat(remoteEndpoints.received()).extracting(AdapterLifecycleTest::text)
                        .containsExactly("to-remote");
                assertThat(embeddedEndpoints.received()).extracting(AdapterLifecycleTest::text)
                        .containsExactly("to-embedded");

                // An activation may name other name servers than its adapter's.
                RecordingEndpointFactory crossed = RecordingEndpointFactory.accepting();
                FerryActivationSpec crossedSpec = TestAdapters.spec(embedded, topic, TestAdapters.unique("CG"));
                crossedSpec.setNameServer(server.nameServerAddress());
                embedded.endpointActivation(crossed, crossedSpec);
                await().atMost(WAIT).until(() -> crossed.released() == 1);
                assertThat(crossed.received()).extracting(AdapterLifecycleTest::text).containsExactly("to-remote");
            } finally {
                remote.stop();
                embedded.stop();
            }
            remoteContext.fakeWorkManager().assertNoWorkOutlivesStop();
        }
    }
}
