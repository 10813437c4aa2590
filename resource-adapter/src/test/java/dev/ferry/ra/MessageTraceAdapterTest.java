package dev.ferry.ra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ferry.api.FerryConnection;
import dev.ferry.api.FerryConnectionFactory;
import dev.ferry.api.Message;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.api.SendResult;
import dev.ferry.client.ClientConfig;
import dev.ferry.client.ConsumeFromWhere;
import dev.ferry.client.FerryClient;
import dev.ferry.client.PushConsumer;
import dev.ferry.client.PushConsumerConfig;
import dev.ferry.format.TraceRecord;
import dev.ferry.ra.inbound.FerryActivationSpec;
import dev.ferry.ra.outbound.FerryManagedConnectionFactory;
import jakarta.resource.spi.InvalidPropertyException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The adapter's {@code enableMsgTrace} and {@code customizedTraceTopic} (RocketMQ's names) on the connection factory
 * and the activation spec: a message sent through the factory and delivered to an endpoint leaves one trace, its Pub
 * and its SubBefore and SubAfter records, in RocketMQ's format on the trace topic of the embedded engine.
 */
class MessageTraceAdapterTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    static Path storeDir;
    private static FerryResourceAdapter adapter;

    @BeforeAll
    static void startAdapter() throws Exception {
        adapter = TestAdapters.embedded(storeDir);
        adapter.start(new FakeBootstrapContext());
    }

    @AfterAll
    static void stopAdapter() {
        if (adapter != null) {
            adapter.stop();
        }
    }

    @Test
    void shouldWriteOneTraceOfASendThroughTheFactoryAndItsDeliveryToAnEndpoint() throws Exception {
        String traceTopic = TestAdapters.unique("TraceTopic");
        String topic = TestAdapters.unique("Traced");
        String producerGroup = TestAdapters.unique("PG");
        FerryManagedConnectionFactory managed = new FerryManagedConnectionFactory();
        managed.setResourceAdapter(adapter);
        managed.setProducerGroup(producerGroup);
        managed.setEnableMsgTrace(true);
        managed.setCustomizedTraceTopic(traceTopic);
        FerryConnectionFactory factory = (FerryConnectionFactory) managed.createConnectionFactory();
        SendResult sent;
        try (FerryConnection connection = factory.getConnection()) {
            sent = connection.send(Message.builder(topic).body("traced".getBytes(StandardCharsets.UTF_8))
                    .keys("order-7").build());
        }

        String consumerGroup = TestAdapters.unique("CG");
        RecordingEndpointFactory endpoints = RecordingEndpointFactory.accepting();
        FerryActivationSpec spec = TestAdapters.spec(adapter, topic, consumerGroup);
        spec.setEnableMsgTrace(true);
        spec.setCustomizedTraceTopic(traceTopic);
        adapter.endpointActivation(endpoints, spec);
        try {
            await().atMost(WAIT).until(() -> endpoints.released() == 1);
        } finally {
            adapter.endpointDeactivation(endpoints, spec);
        }

        List<String[]> records = traceRecords(traceTopic, sent.msgId(), 3);
        assertThat(records).extracting(fields -> fields[0]).containsExactlyInAnyOrder("Pub", "SubBefore", "SubAfter");
        String[] pub = record(records, "Pub");
        assertThat(pub[3]).isEqualTo(producerGroup);
        assertThat(pub[4]).isEqualTo(topic);
        assertThat(pub[7]).isEqualTo("order-7");
        assertThat(pub[12]).isEqualTo(sent.offsetMsgId());
        assertThat(pub[13]).isEqualTo("true");
        String[] before = record(records, "SubBefore");
        assertThat(before[3]).isEqualTo(consumerGroup);
        String[] after = record(records, "SubAfter");
        assertThat(after[1]).as("the request id pairs SubAfter with SubBefore").isEqualTo(before[4]);
        assertThat(after[4]).isEqualTo("true");
    }

    @Test
    void shouldNameABadTraceTopicOnTheFactoryAndTheSpec() {
        FerryManagedConnectionFactory managed = new FerryManagedConnectionFactory();
        managed.setResourceAdapter(adapter);
        managed.setEnableMsgTrace(true);
        managed.setCustomizedTraceTopic("bad topic");
        assertThatThrownBy(() -> managed.createManagedConnection(null, null))
                .isInstanceOf(InvalidPropertyException.class).hasMessageContaining("customizedTraceTopic")
                .hasMessageContaining("bad topic");

        FerryActivationSpec spec = TestAdapters.spec(adapter, "TopicA", "CG_A");
        spec.setEnableMsgTrace(true);
        spec.setCustomizedTraceTopic("bad topic");
        assertThatThrownBy(spec::validate).isInstanceOf(InvalidPropertyException.class)
                .hasMessageContaining("customizedTraceTopic");
    }

    /** The records of {@code msgId} on {@code traceTopic}, split into fields, once {@code count} are there. */
    private static List<String[]> traceRecords(String traceTopic, String msgId, int count) throws Exception {
        List<ReceivedMessage> traces = new CopyOnWriteArrayList<>();
        List<String[]> records = new ArrayList<>();
        try (FerryClient client = new FerryClient(ClientConfig.builder(adapter.runtime().nameServerAddress())
                .clientIp("127.0.0.1").localOffsetDirectory(storeDir.resolve("trace-reader")).build())) {
            PushConsumer reader = client.pushConsumer(PushConsumerConfig.builder(TestAdapters.unique("CG_READER"))
                    .subscribe(traceTopic, "*").consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).build(),
                    traces::add);
            await().atMost(WAIT).until(() -> {
                records.clear();
                for (ReceivedMessage trace : traces) {
                    String body = new String(trace.body(), StandardCharsets.UTF_8);
                    for (String text : body.split(String.valueOf(TraceRecord.RECORD_END))) {
                        String[] fields = text.split(String.valueOf(TraceRecord.FIELD_SEPARATOR), -1);
                        int idField = fields[0].equals("SubAfter") ? 2 : 5;
                        if (fields.length > idField && fields[idField].equals(msgId)) {
                            records.add(fields);
                        }
                    }
                }
                return records.size() >= count;
            });
            reader.close();
        }
        return records;
    }

    private static String[] record(List<String[]> records, String type) {
        return records.stream().filter(fields -> fields[0].equals(type)).findFirst().orElseThrow();
    }
}
