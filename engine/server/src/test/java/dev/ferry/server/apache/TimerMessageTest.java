package dev.ferry.server.apache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ferry.format.SystemTopics;
import dev.ferry.server.FerryServerConfig;
import dev.ferry.format.DelayLevels;
import dev.ferry.server.embedded.EmbeddedEngine;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeaderV2;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RocketMQ 5's timer messages as Apache 5.3.3's client sends them (setDeliverTimeMs, setDelayTimeSec, setDelayTimeMs):
 * held until their time, never delivered before it, with the properties Apache's broker gives a fired message.
 */
@Tag("integration")
class TimerMessageTest {
    /** How late a delivery may be: up to a slot (1 s), the timer's tick, then the long poll. */
    private static final long LATENESS_BOUND_MILLIS = 3_000;
    private static final String TOPIC = "TopicTimer";

    @TempDir
    Path dir;

    private FerryServerConfig.Builder config() {
        return FerryServerFixture.small(dir).delayLevels(DelayLevels.parse("1s 2s 3s"));
    }

    /** When each key arrived, and the message itself. */
    private record Arrival(long at, MessageExt message) {
    }

    private static Map<String, Arrival> consume(ApacheClients clients, String group) throws Exception {
        Map<String, Arrival> received = new ConcurrentHashMap<>();
        DefaultMQPushConsumer consumer = clients.pushConsumer(group);
        consumer.subscribe(TOPIC, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            long now = System.currentTimeMillis();
            messages.forEach(m -> received.merge(m.getKeys(), new Arrival(now, m), (first, again) -> {
                throw new AssertionError("delivered twice: " + m.getKeys());
            }));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        clients.start(consumer);
        return received;
    }

    private static Message message(String key) {
        return new Message(TOPIC, "T", key, key.getBytes(StandardCharsets.UTF_8));
    }

    /** Sends with all three of Apache's timer setters and checks each arrives at its time, not before. */
    private static void shouldHoldEachKindUntilItsTime(String nameServer) throws Exception {
        try (ApacheClients clients = new ApacheClients(nameServer)) {
            DefaultMQProducer producer = clients.producer("PG_TIMER");
            producer.send(message("now"));
            Map<String, Arrival> received = consume(clients, "CG_TIMER");
            await().atMost(Duration.ofSeconds(30)).until(() -> received.containsKey("now"));

            long start = System.currentTimeMillis();
            Message at = message("deliver-at");
            long deliverAt = start + 3_000;
            at.setDeliverTimeMs(deliverAt);
            assertThat(producer.send(at).getSendStatus()).isEqualTo(SendStatus.SEND_OK);
            Message seconds = message("delay-sec");
            seconds.setDelayTimeSec(2);
            long secondsSent = System.currentTimeMillis();
            producer.send(seconds);
            Message millis = message("delay-ms");
            millis.setDelayTimeMs(2_500);
            long millisSent = System.currentTimeMillis();
            producer.send(millis);
            await().atMost(Duration.ofSeconds(20)).until(() -> received.size() == 4);

            assertThat(received.get("deliver-at").at()).isBetween(deliverAt, deliverAt + LATENESS_BOUND_MILLIS);
            assertThat(received.get("delay-sec").at() - secondsSent).isBetween(2_000L,
                    2_000L + LATENESS_BOUND_MILLIS);
            assertThat(received.get("delay-ms").at() - millisSent).isBetween(2_500L, 2_500L + LATENESS_BOUND_MILLIS);
            MessageExt fired = received.get("deliver-at").message();
            assertThat(fired.getTopic()).isEqualTo(TOPIC);
            assertThat(fired.getProperty("REAL_TOPIC")).isNull();
            assertThat(Long.parseLong(fired.getProperty("TIMER_OUT_MS"))).isEqualTo((deliverAt - 1) / 1000 * 1000);
            assertThat(fired.getProperty("TIMER_ENQUEUE_MS")).isNotNull();
            assertThat(Long.parseLong(fired.getProperty("TIMER_DEQUEUE_MS"))).isGreaterThanOrEqualTo(deliverAt);
            assertThat(fired.getDeliverTimeMs()).isEqualTo(deliverAt);
        }
    }

    @Test
    void shouldHoldTimerMessagesUntilTheirTimeOnFerryServer() throws Exception {
        try (FerryServerFixture ferry = new FerryServerFixture(config().build())) {
            shouldHoldEachKindUntilItsTime(ferry.nameServer());
        }
    }

    @Test
    void shouldHoldTimerMessagesUntilTheirTimeInTheEmbeddedEngine() throws Exception {
        try (EmbeddedEngine engine = EmbeddedEngine.settings(dir).namesrvPort(0).brokerPort(0).start()) {
            shouldHoldEachKindUntilItsTime(engine.nameServerAddress());
        }
    }

    @Test
    void shouldRefuseATimeBeyondTheLongestDelayWithApachesCodeAndRemark() throws Exception {
        try (FerryServerFixture ferry = new FerryServerFixture(config().build());
             ApacheClients clients = new ApacheClients(ferry.nameServer())) {
            DefaultMQProducer producer = clients.producer("PG_TIMER");
            producer.send(message("route"));
            Message far = message("far");
            far.setDeliverTimeMs(System.currentTimeMillis() + Duration.ofDays(4).toMillis());
            assertThatThrownBy(() -> producer.send(far)).isInstanceOfSatisfying(MQBrokerException.class, e -> {
                assertThat(e.getResponseCode()).isEqualTo(13);
                assertThat(e.getErrorMessage()).startsWith("timer message illegal, the delay time should not be "
                        + "bigger than the max delay 259200000ms");
            });
        }
    }

    /** Sent as a request of its own: Apache's clients from 5.4 refuse such a batch before it leaves them. */
    @Test
    void shouldRefuseABatchHoldingATimerMessage() throws Exception {
        try (FerryServerFixture ferry = new FerryServerFixture(config().build());
             ApacheClients clients = new ApacheClients(ferry.nameServer())) {
            clients.producer("PG_TIMER").send(message("route"));
            Message inBatch = message("batched");
            inBatch.setDelayTimeSec(5);
            SendMessageRequestHeader header = new SendMessageRequestHeader();
            header.setProducerGroup("PG_TIMER");
            header.setTopic(TOPIC);
            header.setDefaultTopic("TBW102");
            header.setDefaultTopicQueueNums(4);
            header.setQueueId(0);
            header.setSysFlag(0);
            header.setFlag(0);
            header.setBornTimestamp(System.currentTimeMillis());
            header.setBatch(true);
            RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.SEND_BATCH_MESSAGE,
                    SendMessageRequestHeaderV2.createSendMessageRequestHeaderV2(header));
            request.setBody(MessageDecoder.encodeMessages(List.of(message("plain"), inBatch)));
            NettyRemotingClient client = new NettyRemotingClient(new NettyClientConfig());
            client.start();
            try {
                RemotingCommand answer = client.invokeSync("127.0.0.1:" + ferry.server().brokerPort(), request, 5_000);
                assertThat(answer.getCode()).as(answer.getRemark()).isEqualTo(13);
                assertThat(answer.getRemark()).contains("a batch cannot hold timer messages");
            } finally {
                client.shutdown();
            }
            assertThat(ferry.server().broker().store().nextOffset(TOPIC, 0)).as("nothing of the batch stored")
                    .isLessThanOrEqualTo(1);
            assertThat(ferry.server().broker().store().nextOffset(SystemTopics.TIMER_TOPIC, 0)).isZero();
        }
    }

    @Test
    void shouldRefuseTimersAsApacheDoesWhenTheWheelIsOff() throws Exception {
        try (FerryServerFixture ferry = new FerryServerFixture(config().broker(b -> b.timers(
                b.timers().withEnabled(false))).build());
             ApacheClients clients = new ApacheClients(ferry.nameServer())) {
            DefaultMQProducer producer = clients.producer("PG_TIMER");
            producer.send(message("route"));
            Message timer = message("timer");
            timer.setDelayTimeSec(3);
            // SYSTEM_ERROR, which Apache's client tries again before it gives up with the broker's answer
            assertThatThrownBy(() -> producer.send(timer)).rootCause().isInstanceOfSatisfying(MQBrokerException.class,
                    e -> {
                        assertThat(e.getResponseCode()).isEqualTo(1);
                        assertThat(e.getErrorMessage()).contains("accurate timer message is not enabled, "
                                + "timerWheelEnable is false");
                    });
        }
    }

    @Test
    void shouldLetADelayLevelWinOverATimeAndDropTheTimerProperties() throws Exception {
        try (FerryServerFixture ferry = new FerryServerFixture(config().build());
             ApacheClients clients = new ApacheClients(ferry.nameServer())) {
            DefaultMQProducer producer = clients.producer("PG_TIMER");
            producer.send(message("now"));
            Map<String, Arrival> received = consume(clients, "CG_TIMER");
            await().atMost(Duration.ofSeconds(30)).until(() -> received.containsKey("now"));
            Message both = message("both");
            both.setDelayTimeLevel(1);
            both.setDeliverTimeMs(System.currentTimeMillis() + 20_000);
            long sent = System.currentTimeMillis();
            producer.send(both);
            await().atMost(Duration.ofSeconds(10)).until(() -> received.containsKey("both"));
            assertThat(received.get("both").at() - sent).isBetween(1_000L, 1_000L + LATENESS_BOUND_MILLIS);
            assertThat(received.get("both").message().getProperty("TIMER_DELIVER_MS")).isNull();
        }
    }

    @Test
    void shouldCountACommittedTransactionsDelayFromItsCommit() throws Exception {
        try (FerryServerFixture ferry = new FerryServerFixture(config().build());
             ApacheClients clients = new ApacheClients(ferry.nameServer())) {
            Map<String, Long> committedAt = new ConcurrentHashMap<>();
            TransactionMQProducer producer = new TransactionMQProducer("PG_TIMER_TX");
            producer.setTransactionListener(new TransactionListener() {
                @Override
                public LocalTransactionState executeLocalTransaction(Message message, Object arg) {
                    committedAt.put(message.getKeys(), System.currentTimeMillis());
                    return LocalTransactionState.COMMIT_MESSAGE;
                }

                @Override
                public LocalTransactionState checkLocalTransaction(MessageExt message) {
                    return LocalTransactionState.COMMIT_MESSAGE;
                }
            });
            clients.started(producer);
            producer.send(message("now"));
            Map<String, Arrival> received = consume(clients, "CG_TIMER_TX");
            await().atMost(Duration.ofSeconds(30)).until(() -> received.containsKey("now"));
            Message timer = message("tx-timer");
            timer.setDelayTimeSec(2);
            try {
                assertThat(producer.sendMessageInTransaction(timer, null).getSendStatus())
                        .isEqualTo(SendStatus.SEND_OK);
            } catch (MQClientException e) {
                // Apache's clients from 5.4 refuse it themselves; nothing then reaches the broker
                assertThat(e.getErrorMessage()).contains("Transactional messages do not support delayed delivery");
                return;
            }
            Message tooFar = message("tx-too-far");
            tooFar.setDeliverTimeMs(System.currentTimeMillis() + Duration.ofDays(5).toMillis());
            assertThatThrownBy(() -> producer.sendMessageInTransaction(tooFar, null))
                    .hasStackTraceContaining("timer message illegal");
            await().atMost(Duration.ofSeconds(15)).until(() -> received.containsKey("tx-timer"));
            assertThat(received.get("tx-timer").at() - committedAt.get("tx-timer")).isBetween(2_000L,
                    2_000L + LATENESS_BOUND_MILLIS);
            assertThat(received).doesNotContainKey("tx-too-far");
        }
    }
}
