package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.api.BrokerException;
import dev.ferry.api.Message;
import dev.ferry.api.SendResult;
import dev.ferry.format.MessageProperties;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RemotingServerConfig;
import dev.ferry.remoting.endpoint.RemotingServer;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.body.BrokerData;
import dev.ferry.remoting.protocol.body.QueueData;
import dev.ferry.remoting.protocol.body.TopicRouteData;
import dev.ferry.remoting.protocol.header.SendMessageRequestHeaderV2;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Send retries and broker avoidance, against a scripted name server and two scripted brokers on 127.0.0.1. */
class ProducerRetryTest {
    private final ExecutorService pool = Executors.newFixedThreadPool(2);
    private final BodyCodec codec = new BodyCodec();
    private RemotingServer nameServer;
    private ScriptedBroker brokerA;
    private ScriptedBroker brokerB;
    private final AtomicInteger routeRequests = new AtomicInteger();
    private FerryClient client;

    /** A broker that answers every send with a chosen response code and counts the sends. */
    private final class ScriptedBroker implements AutoCloseable {
        final RemotingServer server = new RemotingServer(RemotingServerConfig.builder().build());
        final AtomicInteger sends = new AtomicInteger();
        final List<RemotingCommand> endTransactions = new java.util.concurrent.CopyOnWriteArrayList<>();
        volatile SendMessageRequestHeaderV2 lastSend;
        volatile int answer = ResponseCode.SUCCESS;
        volatile String remark = "scripted";

        ScriptedBroker() {
            server.registerProcessor(RequestCode.SEND_MESSAGE_V2, (context, request) -> {
                sends.incrementAndGet();
                SendMessageRequestHeaderV2 header = request.header(SendMessageRequestHeaderV2.class);
                lastSend = header;
                return RemotingCommand.responseTo(request, answer).remark(answer == 0 ? null : remark)
                        .extField("msgId", "7F000001000000000000000000000000")
                        .extField("queueId", Integer.toString(header.queueId()))
                        .extField("queueOffset", "0").build();
            }, pool);
            server.registerProcessor(RequestCode.END_TRANSACTION, (context, request) -> {
                endTransactions.add(request);
                return null;
            }, pool);
            server.registerProcessor(RequestCode.HEART_BEAT,
                    (context, request) -> RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build(), pool);
            server.registerProcessor(RequestCode.UNREGISTER_CLIENT,
                    (context, request) -> RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build(), pool);
            server.start();
        }

        String address() {
            return "127.0.0.1:" + server.port();
        }

        @Override
        public void close() {
            server.close();
        }
    }

    @BeforeEach
    void startServers() {
        brokerA = new ScriptedBroker();
        brokerB = new ScriptedBroker();
        TopicRouteData route = new TopicRouteData(
                List.of(new QueueData("broker-a", 2, 2, 6, 0), new QueueData("broker-b", 2, 2, 6, 0)),
                List.of(new BrokerData("c", "broker-a", Map.of(0L, brokerA.address()), false),
                        new BrokerData("c", "broker-b", Map.of(0L, brokerB.address()), false)),
                Map.of());
        byte[] body = codec.encode(route);
        nameServer = new RemotingServer(RemotingServerConfig.builder().build());
        nameServer.registerProcessor(RequestCode.GET_ROUTEINFO_BY_TOPIC, (context, request) -> {
            routeRequests.incrementAndGet();
            return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).body(body).build();
        }, pool);
        nameServer.start();
        client = new FerryClient(ClientConfig.builder("127.0.0.1:" + nameServer.port()).clientIp("127.0.0.1")
                .build());
    }

    @AfterEach
    void stopServers() {
        client.close();
        nameServer.close();
        brokerA.close();
        brokerB.close();
        pool.shutdownNow();
    }

    private static Message message() {
        return Message.builder("RetryTopic").body("x".getBytes(StandardCharsets.UTF_8)).build();
    }

    @Test
    void shouldRetryOnAnotherBrokerAndThenAvoidTheFailedOne() {
        brokerA.answer = ResponseCode.SYSTEM_BUSY;
        Producer producer = client.producer(ProducerConfig.builder("PG").build());
        int routeRequestsBefore = routeRequests.get();
        for (int i = 0; i < 6; i++) {
            SendResult result = producer.send(message());
            assertThat(result.messageQueue().brokerName()).isEqualTo("broker-b");
        }
        assertThat(brokerA.sends.get()).isEqualTo(1);
        assertThat(brokerB.sends.get()).isEqualTo(6);
        assertThat(routeRequests.get()).as("the route is re-read after a failed send").isGreaterThan(
                routeRequestsBefore + 1);
    }

    @Test
    void shouldGiveUpAfterTwoRetriesWithARetriableException() {
        brokerA.answer = ResponseCode.SYSTEM_BUSY;
        brokerB.answer = ResponseCode.SYSTEM_BUSY;
        Producer producer = client.producer(ProducerConfig.builder("PG").build());
        assertThatThrownBy(() -> producer.send(message())).isInstanceOfSatisfying(BrokerException.class, e -> {
            assertThat(e.responseCode()).isEqualTo(ResponseCode.SYSTEM_BUSY);
            assertThat(e.remark()).isEqualTo("scripted");
            assertThat(e.isRetriable()).isTrue();
        });
        assertThat(brokerA.sends.get() + brokerB.sends.get()).isEqualTo(3);
    }

    @Test
    void aSendThatFailsAfterItsRetriesIsRecordedAsOneFailureWithItsTime() {
        brokerA.answer = ResponseCode.SYSTEM_BUSY;
        brokerB.answer = ResponseCode.SYSTEM_BUSY;
        try (FerryClient measured = new FerryClient(ClientConfig.builder("127.0.0.1:" + nameServer.port())
                .clientIp("127.0.0.1").metrics(true).build())) {
            Producer producer = measured.producer(ProducerConfig.builder("PG_MEASURED").build());
            assertThatThrownBy(() -> producer.send(message())).isInstanceOf(BrokerException.class);
            brokerB.answer = ResponseCode.SUCCESS;
            producer.send(message());
            io.prometheus.metrics.model.snapshots.HistogramSnapshot sends =
                    (io.prometheus.metrics.model.snapshots.HistogramSnapshot) measured.metrics().orElseThrow()
                            .registry().scrape().stream()
                            .filter(m -> m.getMetadata().getName().equals("rocketmq_send_cost_time_milliseconds"))
                            .findFirst().orElseThrow();
            assertThat(sends.getDataPoints()).extracting(p -> p.getLabels().get("invocation_status"),
                    io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot::getCount)
                    .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("failure", 1L),
                            org.assertj.core.groups.Tuple.tuple("success", 1L));
        }
    }

    @Test
    void shouldNotRetryWhatNoBrokerWillAccept() {
        brokerA.answer = ResponseCode.MESSAGE_ILLEGAL;
        brokerB.answer = ResponseCode.MESSAGE_ILLEGAL;
        Producer producer = client.producer(ProducerConfig.builder("PG").build());
        assertThatThrownBy(() -> producer.sendAsync(message()).join()).hasCauseInstanceOf(BrokerException.class);
        assertThat(brokerA.sends.get() + brokerB.sends.get()).isEqualTo(1);
    }

    @Test
    void shouldRefuseATimerMessageBeyondTheBrokersLimitWithTheBrokersRemark() {
        String remark = "timer message illegal, the delay time should not be bigger than the max delay 259200000ms;"
                + " or if set del msg, the delay time should be bigger than the current time";
        for (ScriptedBroker broker : List.of(brokerA, brokerB)) {
            broker.answer = ResponseCode.MESSAGE_ILLEGAL;
            broker.remark = remark;
        }
        Producer producer = client.producer(ProducerConfig.builder("PG").build());
        Message message = Message.builder("T").body("x".getBytes(StandardCharsets.UTF_8))
                .deliverAfter(Duration.ofDays(4)).build();

        assertThatThrownBy(() -> producer.send(message)).isInstanceOfSatisfying(BrokerException.class, e -> {
            assertThat(e.responseCode()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
            assertThat(e.remark()).isEqualTo(remark);
            assertThat(e.isRetriable()).isFalse();
        }).hasMessageContaining("response code 13 (" + remark + ")");
        assertThat(brokerA.sends.get() + brokerB.sends.get()).isEqualTo(1);
    }

    @Test
    void shouldKeepTheDelayOfAHalfMessageForItsCommit() {
        Producer producer = client.producer(ProducerConfig.builder("PG_TX").build(), m -> TransactionState.COMMIT);
        producer.sendInTransaction(Message.builder("T").body("x".getBytes(StandardCharsets.UTF_8))
                .deliverAfter(Duration.ofSeconds(3)).build(), m -> TransactionState.ROLLBACK);

        ScriptedBroker broker = brokerA.sends.get() == 1 ? brokerA : brokerB;
        assertThat(MessageProperties.parse(broker.lastSend.properties())).containsEntry("TRAN_MSG", "true")
                .containsEntry(MessageProperties.TIMER_DELAY_MS, "3000");
    }

    @Test
    void shouldNotRetryOnewaySends() throws Exception {
        brokerA.answer = ResponseCode.SYSTEM_BUSY;
        brokerB.answer = ResponseCode.SYSTEM_BUSY;
        Producer producer = client.producer(ProducerConfig.builder("PG").build());
        producer.sendOneway(message());
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5))
                .until(() -> brokerA.sends.get() + brokerB.sends.get() == 1);
    }

    @Test
    void shouldSendHalfMessagesAndEndTheirTransaction() {
        Producer producer = client.producer(ProducerConfig.builder("PG_TX").build(), m -> TransactionState.COMMIT);
        TransactionSendResult result = producer.sendInTransaction(message(), m -> TransactionState.ROLLBACK);

        ScriptedBroker broker = brokerA.sends.get() == 1 ? brokerA : brokerB;
        SendMessageRequestHeaderV2 half = broker.lastSend;
        assertThat(half.sysFlag() & 0x4).isEqualTo(0x4);
        assertThat(MessageProperties.parse(half.properties())).containsEntry("TRAN_MSG", "true")
                .containsEntry("PGROUP", "PG_TX");
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> broker.endTransactions.size() == 1);
        RemotingCommand end = broker.endTransactions.get(0);
        assertThat(end.isOneway()).isTrue();
        assertThat(end.extFields()).containsEntry("commitOrRollback", "12").containsEntry("producerGroup", "PG_TX")
                .containsEntry("msgId", result.sendResult().msgId()).containsEntry("fromTransactionCheck", "false");
    }
}
