package dev.ferry.ra;

import dev.ferry.api.FerryConnectionFactory;
import dev.ferry.remoting.RemotingClientConfig;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.endpoint.RemotingClient;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.header.CreateTopicRequestHeader;
import dev.ferry.remoting.protocol.header.GetMaxOffsetRequestHeader;
import dev.ferry.remoting.protocol.header.OffsetResponseHeader;
import dev.ferry.ra.inbound.FerryActivationSpec;
import dev.ferry.ra.outbound.FerryManagedConnectionFactory;
import jakarta.resource.ResourceException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/** Helpers that build adapters, activation specs and connection factories for tests. */
public final class TestAdapters {
    private static final AtomicInteger NAMES = new AtomicInteger();

    private TestAdapters() {
    }

    /** A topic or group name no other test uses. */
    public static String unique(String prefix) {
        return prefix + "_" + Long.toString(System.nanoTime() % 1_000_000_000L, 36) + "_" + NAMES.incrementAndGet();
    }

    /** An embedded-mode adapter on free ports with small commit-log files, not started. */
    public static FerryResourceAdapter embedded(Path storeDir) {
        FerryResourceAdapter adapter = new FerryResourceAdapter();
        adapter.setStoreDir(storeDir.toString());
        adapter.setNamesrvPort(0);
        adapter.setBrokerPort(0);
        adapter.setCommitLogSegmentSize(16 * 1024 * 1024);
        return adapter;
    }

    /** Waits until no thread of an adapter (named {@code ferry-ra-*}) is alive. */
    public static void awaitNoAdapterThreads() {
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(15))
                .until(() -> liveAdapterThreads().isEmpty());
    }

    /** The names of the live threads an adapter started. */
    public static java.util.List<String> liveAdapterThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(name -> name.startsWith("ferry-ra-")).sorted().toList();
    }

    /** A remote-mode adapter, not started. */
    public static FerryResourceAdapter remote(String nameServer, Path storeDir) {
        FerryResourceAdapter adapter = new FerryResourceAdapter();
        adapter.setMode("remote");
        adapter.setNameServer(nameServer);
        adapter.setStoreDir(storeDir.toString());
        return adapter;
    }

    /** An activation spec of {@code adapter} reading {@code topic} from its start. */
    public static FerryActivationSpec spec(FerryResourceAdapter adapter, String topic, String group) {
        FerryActivationSpec spec = new FerryActivationSpec();
        spec.setResourceAdapter(adapter);
        spec.setTopic(topic);
        spec.setConsumerGroup(group);
        spec.setConsumeFromWhere("CONSUME_FROM_FIRST_OFFSET");
        return spec;
    }

    /** A connection factory of {@code adapter} outside a server (unpooled connections). */
    public static FerryConnectionFactory connectionFactory(FerryResourceAdapter adapter) throws ResourceException {
        FerryManagedConnectionFactory managed = new FerryManagedConnectionFactory();
        managed.setResourceAdapter(adapter);
        managed.setProducerGroup(unique("PG"));
        return (FerryConnectionFactory) managed.createConnectionFactory();
    }

    /** Creates {@code topic} with {@code queues} queues on the embedded engine's broker of a running adapter. */
    public static void createTopic(FerryResourceAdapter adapter, String topic, int queues) throws Exception {
        RemotingCommand answer = callBroker(adapter, RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_TOPIC,
                new CreateTopicRequestHeader(topic, "TBW102", queues, queues, 6, "SINGLE_TAG", 0, false, "", false))
                .build());
        org.assertj.core.api.Assertions.assertThat(answer.code()).as(answer.remark()).isEqualTo(ResponseCode.SUCCESS);
    }

    /** How many messages the dead-letter queue of {@code group} holds on the embedded engine's broker. */
    public static long deadLettered(FerryResourceAdapter adapter, String group) throws Exception {
        RemotingCommand answer = callBroker(adapter, RemotingCommand.request(RequestCode.GET_MAX_OFFSET,
                new GetMaxOffsetRequestHeader("%DLQ%" + group, 0, null, null)).build());
        return answer.code() == ResponseCode.SUCCESS ? answer.header(OffsetResponseHeader.class).offset() : 0;
    }

    private static RemotingCommand callBroker(FerryResourceAdapter adapter, RemotingCommand request)
            throws Exception {
        String broker = adapter.runtime().embeddedEngine().orElseThrow().server().broker().address();
        try (RemotingClient client = new RemotingClient(RemotingClientConfig.builder().build())) {
            return client.invokeSync(broker, request, java.time.Duration.ofSeconds(5));
        }
    }
}
