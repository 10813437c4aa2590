package dev.ferry.server.apache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeOrderlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerOrderly;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.MessageQueueSelector;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.body.LockBatchRequestBody;
import org.apache.rocketmq.remoting.protocol.body.LockBatchResponseBody;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Orderly consumers hold their queues through broker locks, so each order's steps are consumed in order. */
@Tag("integration")
class OrderlyConsumptionTest {
    private static final int ORDERS = 10;
    private static final int STEPS = 20;

    @TempDir
    Path dir;

    private record Step(int order, int step) {
    }

    /**
     * An orderly consumer of the group recording what it consumes; with a {@code gate}, it stops consuming once a
     * third of the steps were consumed until the gate opens.
     */
    private static DefaultMQPushConsumer orderly(ApacheClients clients, List<Step> consumed, CountDownLatch gate)
            throws Exception {
        DefaultMQPushConsumer consumer = clients.pushConsumer("CG_ORDER");
        consumer.subscribe("TopicOrder", "*");
        consumer.registerMessageListener((MessageListenerOrderly) (messages, context) -> {
            for (var message : messages) {
                if (!message.getKeys().contains("-")) {
                    continue; // the warm-up message
                }
                String[] parts = message.getKeys().split("-");
                consumed.add(new Step(Integer.parseInt(parts[0]), Integer.parseInt(parts[1])));
            }
            try {
                TimeUnit.MILLISECONDS.sleep(10); // slow enough that the handover happens mid-stream
                if (gate != null && consumed.size() >= ORDERS * STEPS / 3) {
                    // Hold this consumer's queues until the other one has left, so that it leaves midway
                    // however long its shutdown takes.
                    gate.await(60, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return ConsumeOrderlyStatus.SUCCESS;
        });
        return clients.start(consumer);
    }

    @SuppressWarnings("deprecation") // the only view of a push consumer's assigned queues
    private static int assigned(DefaultMQPushConsumer consumer) {
        return consumer.getDefaultMQPushConsumerImpl().getRebalanceImpl().getProcessQueueTable().size();
    }

    @Test
    void shouldConsumeEveryOrdersStepsInOrderWhileOneOfTwoConsumersLeaves() throws Exception {
        try (FerryServerFixture ferry = new FerryServerFixture(dir);
             ApacheClients clients = new ApacheClients(ferry.nameServer())) {
            ApacheClients leaving = new ApacheClients(ferry.nameServer());
            try {
                runOrders(ferry, clients, leaving);
            } finally {
                leaving.close();
            }
        }
    }

    private static void runOrders(FerryServerFixture ferry, ApacheClients clients, ApacheClients leaving)
            throws Exception {
        DefaultMQProducer producer = clients.producer("PG_ORDER");
        producer.send(new Message("TopicOrder", "T", "warmup", new byte[] {1})); // creates the topic
        ApacheClients.announceGroup(ferry, "CG_ORDER");
        List<Step> consumed = new CopyOnWriteArrayList<>();
        CountDownLatch left = new CountDownLatch(1);
        DefaultMQPushConsumer stays = orderly(clients, consumed, left);
        DefaultMQPushConsumer leaves = orderly(leaving, consumed, null);
        await().atMost(Duration.ofSeconds(30)).until(() -> assigned(stays) > 0 && assigned(leaves) > 0
                && assigned(stays) + assigned(leaves) == 5); // 4 topic queues + one retry queue

        MessageQueueSelector byOrder = (queues, message, order) -> queues.get((Integer) order % queues.size());
        for (int step = 0; step < STEPS; step++) {
            for (int order = 0; order < ORDERS; order++) {
                Message message = new Message("TopicOrder", "T", order + "-" + step,
                        ("order " + order + " step " + step).getBytes(StandardCharsets.UTF_8));
                producer.send(message, byOrder, order);
            }
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> consumed.size() >= ORDERS * STEPS / 3);
        leaving.close();
        assertThat(Set.copyOf(consumed)).as("the consumer left midway").hasSizeLessThan(ORDERS * STEPS);
        left.countDown();
        await().atMost(Duration.ofSeconds(60)).until(() -> Set.copyOf(consumed).containsAll(all()));

        Map<Integer, List<Integer>> byOrderSeen = new ConcurrentHashMap<>();
        for (Step s : consumed) {
            byOrderSeen.computeIfAbsent(s.order(), o -> new ArrayList<>()).add(s.step());
        }
        assertThat(byOrderSeen).hasSize(ORDERS);
        byOrderSeen.forEach((order, steps) -> {
            assertThat(steps.get(0)).as("order %d starts at step 0: %s", order, steps).isZero();
            for (int i = 1; i < steps.size(); i++) {
                // Each step follows its predecessor, or repeats earlier ones (a redelivery after a
                // handover starts again from the committed offset); it never skips ahead.
                assertThat(steps.get(i)).as("order %d consumed %s", order, steps)
                        .isLessThanOrEqualTo(steps.get(i - 1) + 1);
            }
            assertThat(Set.copyOf(steps)).as("order %d", order).hasSize(STEPS);
        });
    }

    @Test
    void shouldLockAQueueToOneClientOfTheGroupUntilItUnlocksIt() throws Exception {
        try (FerryServerFixture ferry = new FerryServerFixture(dir)) {
            NettyRemotingClient client = new NettyRemotingClient(new NettyClientConfig());
            client.start();
            try {
                String broker = "127.0.0.1:" + ferry.server().brokerPort();
                createTopic(ferry, "TopicLock");
                MessageQueue q0 = new MessageQueue("TopicLock", "broker-a", 0);
                MessageQueue q1 = new MessageQueue("TopicLock", "broker-a", 1);
                assertThat(lock(client, broker, "client-a", q0)).containsExactly(q0);
                assertThat(lock(client, broker, "client-b", q0, q1)).containsExactly(q1);
                unlock(client, broker, "client-a", q0);
                assertThat(lock(client, broker, "client-b", q0, q1)).containsExactlyInAnyOrder(q0, q1);
            } finally {
                client.shutdown();
            }
        }
    }

    /** Only queues the broker serves can be locked. */
    private static void createTopic(FerryServerFixture ferry, String topic) throws Exception {
        DefaultMQProducer producer = new DefaultMQProducer("PG_LOCK");
        producer.setNamesrvAddr(ferry.nameServer());
        producer.setInstanceName("lock" + System.nanoTime());
        producer.start();
        try {
            assertThat(producer.send(new Message(topic, "x".getBytes(StandardCharsets.UTF_8))).getSendStatus())
                    .isEqualTo(SendStatus.SEND_OK);
        } finally {
            producer.shutdown();
        }
    }

    private static LockBatchRequestBody lockBody(String clientId, MessageQueue... queues) {
        LockBatchRequestBody body = new LockBatchRequestBody();
        body.setConsumerGroup("CG_LOCK");
        body.setClientId(clientId);
        body.setMqSet(new java.util.HashSet<>(List.of(queues)));
        return body;
    }

    private static Set<MessageQueue> lock(NettyRemotingClient client, String broker, String clientId,
                                          MessageQueue... queues) throws Exception {
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.LOCK_BATCH_MQ, null);
        request.setBody(lockBody(clientId, queues).encode());
        RemotingCommand response = client.invokeSync(broker, request, 5000);
        assertThat(response.getCode()).isEqualTo(ResponseCode.SUCCESS);
        return LockBatchResponseBody.decode(response.getBody(), LockBatchResponseBody.class).getLockOKMQSet();
    }

    private static void unlock(NettyRemotingClient client, String broker, String clientId, MessageQueue... queues)
            throws Exception {
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.UNLOCK_BATCH_MQ, null);
        request.setBody(lockBody(clientId, queues).encode());
        assertThat(client.invokeSync(broker, request, 5000).getCode()).isEqualTo(ResponseCode.SUCCESS);
    }

    private static Set<Step> all() {
        Set<Step> all = new java.util.HashSet<>();
        for (int order = 0; order < ORDERS; order++) {
            for (int step = 0; step < STEPS; step++) {
                all.add(new Step(order, step));
            }
        }
        return all;
    }
}
