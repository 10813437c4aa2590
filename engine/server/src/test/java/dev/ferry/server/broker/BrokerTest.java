package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.format.Clock;
import dev.ferry.format.DaemonThreads;
import dev.ferry.format.ManualClock;
import dev.ferry.remoting.RemotingClientConfig;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.endpoint.RemotingClient;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.header.GetMaxOffsetRequestHeader;
import dev.ferry.store.StoreConfig;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A broker built from its parts with fakes in place of name servers: its lifecycle, without {@code FerryServer}. */
@Tag("integration")
class BrokerTest {
    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(1_700_000_000_000L);
    private final FakeRegistration registration = new FakeRegistration();
    private final AtomicInteger storesOpened = new AtomicInteger();
    private final AtomicReference<Broker> built = new AtomicReference<>();

    /** Records what the broker tells its name servers, and which of its threads still ran at unregistration. */
    private final class FakeRegistration implements NameServerRegistration {
        final List<String> calls = new CopyOnWriteArrayList<>();
        final List<String> runningAtUnregistration = new CopyOnWriteArrayList<>();
        final List<String> haAddresses = new CopyOnWriteArrayList<>();

        @Override
        public void whenMasterNamed(BiConsumer<String, String> listener) {
            calls.add("whenMasterNamed");
        }

        @Override
        public void addresses(String address, String haAddress) {
            calls.add("addresses " + address);
            haAddresses.add(haAddress);
        }

        @Override
        public int registerAll() {
            calls.add("registerAll");
            return 1;
        }

        @Override
        public void unregisterAll() {
            calls.add("unregisterAll");
            BrokerExecutors executors = built.get().threads();
            executors.requestPools().forEach((kind, pool) -> {
                if (!pool.isShutdown()) {
                    runningAtUnregistration.add(kind);
                }
            });
            if (!executors.scheduler().isShutdown()) {
                runningAtUnregistration.add("scheduler");
            }
            if (!executors.registrar().isShutdown()) {
                runningAtUnregistration.add("registrar");
            }
        }
    }

    private Broker broker() {
        return broker(BrokerConfig.builder(dir.resolve("broker")));
    }

    private Broker broker(BrokerConfig.Builder builder) {
        BrokerConfig config = builder.brokerName("fake-a").clusterName("FakeCluster").host("127.0.0.1").port(0)
                .nameServers(List.of()).build();
        BrokerParts parts = new BrokerParts((storeConfig, storeClock, threads, arrivals) -> {
            storesOpened.incrementAndGet();
            return BrokerParts.standard().store().open(storeConfig, storeClock, threads, arrivals);
        }, (brokerConfig, topics, client, json) -> registration);
        Broker broker = new Broker(config, StoreConfig.builder(dir.resolve("store")).build(), clock,
                new DaemonThreads("broker-test"), BrokerTest.class.getClassLoader(), parts);
        built.set(broker);
        return broker;
    }

    @AfterEach
    void close() {
        if (built.get() != null) {
            built.get().close();
        }
    }

    @Test
    void shouldRegisterWithTheGivenRegistrationWhenStarted() {
        Broker broker = broker().start();

        assertThat(storesOpened).hasValue(1);
        assertThat(registration.calls).containsExactly("whenMasterNamed", "addresses " + broker.address(),
                "registerAll");
    }

    @Test
    void shouldAnswerARequestThroughItsRequestTable() throws Exception {
        Broker broker = broker().start();
        assertThat(broker.requests().routeOf(RequestCode.GET_MAX_OFFSET).orElseThrow().executor())
                .isSameAs(broker.threads().client());

        try (RemotingClient client = new RemotingClient(RemotingClientConfig.builder().build(),
                new DaemonThreads("broker-test-client"), Clock.system())) {
            RemotingCommand answer = client.invokeSync(broker.address(), RemotingCommand.request(
                    RequestCode.GET_MAX_OFFSET, new GetMaxOffsetRequestHeader("fake-a", 0, null, null)).build(),
                    Duration.ofSeconds(5));

            assertThat(answer.code()).as(answer.remark()).isEqualTo(ResponseCode.SUCCESS);
            assertThat(answer.extField("offset")).isEqualTo("0");
        }
    }

    @Test
    void shouldRefuseWritesInPlaceOfTheirProcessorsWhenSlave() {
        Broker broker = broker(BrokerConfig.builder(dir.resolve("broker")).brokerRole(BrokerRole.SLAVE).brokerId(1))
                .start();

        for (int code : SlaveRefusal.CODES) {
            assertThat(broker.requests().routeOf(code).orElseThrow().processor()).isInstanceOf(SlaveRefusal.class);
        }
        try (RemotingClient client = new RemotingClient(RemotingClientConfig.builder().build(),
                new DaemonThreads("broker-test-client"), Clock.system())) {
            RemotingCommand answer = client.invokeSync(broker.address(),
                    RemotingCommand.request(RequestCode.SEND_MESSAGE).build(), Duration.ofSeconds(5));

            assertThat(answer.code()).isEqualTo(ResponseCode.SYSTEM_BUSY);
            assertThat(answer.remark()).contains("fake-a id 1 is a slave");
        }
    }

    @Test
    void shouldListenOnItsBindAddressWhileRegisteringItsHost() throws Exception {
        Broker broker = broker(BrokerConfig.builder(dir.resolve("broker")).bindAddress("127.0.0.2")
                .brokerRole(BrokerRole.SYNC_MASTER)).start();

        assertThat(registration.calls).contains("addresses " + broker.address());
        assertThat(broker.address()).startsWith("127.0.0.1:");
        assertThat(registration.haAddresses).singleElement().asString().startsWith("127.0.0.1:");
        for (String advertised : List.of(broker.address(), registration.haAddresses.get(0))) {
            int port = Integer.parseInt(advertised.substring(advertised.indexOf(':') + 1));
            try (Socket bound = new Socket("127.0.0.2", port)) {
                assertThat(bound.isConnected()).isTrue();
            }
            assertThatThrownBy(() -> new Socket("127.0.0.1", port).close()).as("nothing listens on the host")
                    .isInstanceOf(ConnectException.class);
        }
    }

    @Test
    void shouldReplicateFromItsHaMasterAddressWithoutWaitingForANameServer() throws Exception {
        try (ServerSocket master = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            master.setSoTimeout((int) Duration.ofSeconds(30).toMillis());
            broker(BrokerConfig.builder(dir.resolve("broker")).brokerRole(BrokerRole.SLAVE).brokerId(1)
                    .haMasterAddress("127.0.0.1:" + master.getLocalPort())).start();

            try (Socket slave = master.accept()) {
                assertThat(slave.isConnected()).as("the slave dialled the configured address").isTrue();
            }
        }
    }

    @Test
    void shouldStopDutiesThenUnregisterThenDrainRequestsWhenClosed() {
        Broker broker = broker().start();

        broker.close();

        assertThat(registration.calls).endsWith("unregisterAll");
        assertThat(registration.runningAtUnregistration).as("duties stopped first, requests still served")
                .containsExactlyInAnyOrder("send", "pull", "client", "query", "admin");
        assertThat(broker.threads().requestPools().values()).allMatch(pool -> pool.isTerminated());
        assertThat(broker.threads().scheduler().isTerminated()).isTrue();
        assertThat(broker.threads().timer().isTerminated()).isTrue();
    }
}
