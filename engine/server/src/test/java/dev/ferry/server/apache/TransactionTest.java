package dev.ferry.server.apache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.format.StoredMessageView;
import dev.ferry.server.FerryServerConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Transactional messages with Apache's TransactionMQProducer: commit, rollback, check-back, restart. */
@Tag("integration")
class TransactionTest {
    @TempDir
    Path dir;

    private FerryServerConfig config(int maxChecks) {
        return FerryServerFixture.small(dir).transactionChecks(Duration.ofSeconds(1), maxChecks).build();
    }

    /**
     * The local transaction decides by the message's key; the check answers {@code check} and records the key (or the
     * topic it was shown under, when that is the broker's half topic).
     */
    private static TransactionListener listener(Function<String, LocalTransactionState> local,
                                                LocalTransactionState check, List<String> checked) {
        return new TransactionListener() {
            @Override
            public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
                return local.apply(msg.getKeys());
            }

            @Override
            public LocalTransactionState checkLocalTransaction(MessageExt msg) {
                // the checker sees the message as sent, as with Apache's broker, never the half topic
                checked.add(msg.getTopic().startsWith("RMQ_SYS") ? "shown as " + msg.getTopic() : msg.getKeys());
                return check;
            }
        };
    }

    private static LocalTransactionState byKey(String key) {
        if (key.startsWith("commit")) {
            return LocalTransactionState.COMMIT_MESSAGE;
        }
        return key.startsWith("rollback") ? LocalTransactionState.ROLLBACK_MESSAGE : LocalTransactionState.UNKNOW;
    }

    private static TransactionMQProducer producer(ApacheClients clients, String group, TransactionListener listener)
            throws Exception {
        TransactionMQProducer producer = new TransactionMQProducer(group);
        producer.setTransactionListener(listener);
        // The broker asks only producers whose heartbeat it has; a producer heartbeats brokers it
        // knows from its routes, every 30 s by default. Once a second keeps check-backs prompt.
        producer.setHeartbeatBrokerInterval(1000);
        return clients.started(producer);
    }

    private static void send(TransactionMQProducer producer, String key) throws Exception {
        Message message = new Message("TopicTx", "T", key, key.getBytes(StandardCharsets.UTF_8));
        assertThat(producer.sendMessageInTransaction(message, null).getSendStatus()).isEqualTo(SendStatus.SEND_OK);
    }

    private static Map<String, Integer> consume(ApacheClients clients) throws Exception {
        Map<String, Integer> received = new ConcurrentHashMap<>();
        DefaultMQPushConsumer consumer = clients.pushConsumer("CG_TX");
        consumer.subscribe("TopicTx", "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            messages.forEach(m -> received.merge(m.getKeys(), 1, Integer::sum));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        clients.start(consumer);
        return received;
    }

    @Test
    void shouldDeliverCommittedDropRolledBackAndAskTheProducerAboutUnknownTransactions() throws Exception {
        try (FerryServerFixture ferry = new FerryServerFixture(config(15));
             ApacheClients clients = new ApacheClients(ferry.nameServer())) {
            List<String> checked = new CopyOnWriteArrayList<>();
            TransactionMQProducer producer = producer(clients, "PG_TX",
                    listener(TransactionTest::byKey, LocalTransactionState.COMMIT_MESSAGE, checked));
            send(producer, "commit-1");
            send(producer, "rollback-1");
            send(producer, "unknown-1");
            Map<String, Integer> received = consume(clients);

            await().atMost(Duration.ofSeconds(30)).until(() -> received.containsKey("commit-1")
                    && received.containsKey("unknown-1"));
            assertThat(checked).as("only the undecided one is asked about").containsOnly("unknown-1");
            // The producer's answer to the check committed it: it is asked no more and delivered once.
            await().during(Duration.ofMillis(2_500)).atMost(Duration.ofSeconds(5)).until(() ->
                    checked.size() == 1 && received.equals(Map.of("commit-1", 1, "unknown-1", 1)));
        }
    }

    @Test
    void shouldDiscardATransactionAfterTheLastCheck() throws Exception {
        try (FerryServerFixture ferry = new FerryServerFixture(config(2));
             ApacheClients clients = new ApacheClients(ferry.nameServer())) {
            List<String> checked = new CopyOnWriteArrayList<>();
            TransactionMQProducer producer = producer(clients, "PG_TX_UNDECIDED",
                    listener(TransactionTest::byKey, LocalTransactionState.UNKNOW, checked));
            send(producer, "undecided");
            send(producer, "commit-marker");
            Map<String, Integer> received = consume(clients);
            await().atMost(Duration.ofSeconds(15)).until(() -> checked.size() == 2);
            await().during(Duration.ofMillis(2_500)).atMost(Duration.ofSeconds(5)).until(() -> checked.size() == 2);
            assertThat(received).containsOnlyKeys("commit-marker");
        }
    }

    @Test
    void shouldKeepUndecidedAndDecidedTransactionsAcrossARestart() throws Exception {
        FerryServerConfig config = config(15);
        try (FerryServerFixture ferry = new FerryServerFixture(config);
             ApacheClients clients = new ApacheClients(ferry.nameServer())) {
            TransactionMQProducer producer = producer(clients, "PG_TX_RESTART",
                    listener(TransactionTest::byKey, LocalTransactionState.UNKNOW, new CopyOnWriteArrayList<>()));
            send(producer, "commit-before");
            send(producer, "rollback-before");
            send(producer, "pending");
        }
        try (FerryServerFixture ferry = new FerryServerFixture(config);
             ApacheClients clients = new ApacheClients(ferry.nameServer())) {
            List<String> checked = new CopyOnWriteArrayList<>();
            TransactionMQProducer producer = producer(clients, "PG_TX_RESTART",
                    listener(TransactionTest::byKey, LocalTransactionState.COMMIT_MESSAGE, checked));
            send(producer, "commit-after"); // a producer knows (and heartbeats) the brokers it sends to
            Map<String, Integer> received = consume(clients);
            await().atMost(Duration.ofSeconds(30)).until(() -> received.containsKey("pending"));
            await().during(Duration.ofMillis(2_500)).atMost(Duration.ofSeconds(5)).until(() ->
                    received.equals(Map.of("commit-before", 1, "pending", 1, "commit-after", 1)));
            assertThat(checked).as("decided transactions are not asked about after the restart")
                    .containsOnly("pending");
        }
    }

    @Test
    void shouldRefuseAnotherProducerGroupsEndOrAWrongOffsetAndLeaveTheHalfMessageToItsProducer() throws Exception {
        try (FerryServerFixture ferry = new FerryServerFixture(config(15));
             ApacheClients clients = new ApacheClients(ferry.nameServer())) {
            List<String> checked = new CopyOnWriteArrayList<>();
            TransactionMQProducer producer = producer(clients, "PG_TX_OWNER",
                    listener(TransactionTest::byKey, LocalTransactionState.ROLLBACK_MESSAGE, checked));
            Message message = new Message("TopicTxTheirs", "T", "unknown-theirs",
                    "theirs".getBytes(StandardCharsets.UTF_8));
            org.apache.rocketmq.client.producer.SendResult sent = producer.sendMessageInTransaction(message, null);
            // where the half message is, as the broker's check-back would tell its producer
            await().atMost(Duration.ofSeconds(10)).until(() -> ferry.server().broker().store().nextOffset(
                    dev.ferry.format.SystemTopics.TRANSACTION_HALF_TOPIC, 0) == 1);
            StoredMessageView half = ferry.server().broker().store().getMessages(
                    dev.ferry.format.SystemTopics.TRANSACTION_HALF_TOPIC, 0, 0, 1, 1 << 20,
                    dev.ferry.store.MessageFilterPredicate.ALL).views().get(0);
            long commitLogOffset = half.physicalOffset();

            org.apache.rocketmq.remoting.netty.NettyRemotingClient raw =
                    new org.apache.rocketmq.remoting.netty.NettyRemotingClient(
                            new org.apache.rocketmq.remoting.netty.NettyClientConfig());
            raw.start();
            try {
                String broker = "127.0.0.1:" + ferry.server().brokerPort();
                org.apache.rocketmq.remoting.protocol.RemotingCommand otherGroup = raw.invokeSync(broker,
                        endTransaction("PG_TX_INTRUDER", half.queueOffset(), commitLogOffset), 5000);
                org.apache.rocketmq.remoting.protocol.RemotingCommand wrongOffset = raw.invokeSync(broker,
                        endTransaction("PG_TX_OWNER", half.queueOffset() + 1, commitLogOffset), 5000);

                assertThat(otherGroup.getCode()).isEqualTo(dev.ferry.remoting.protocol.ResponseCode.SYSTEM_ERROR);
                assertThat(otherGroup.getRemark()).isEqualTo("The producer group wrong");
                assertThat(wrongOffset.getCode()).isEqualTo(dev.ferry.remoting.protocol.ResponseCode.SYSTEM_ERROR);
                assertThat(wrongOffset.getRemark()).isEqualTo("The transaction state table offset wrong");
            } finally {
                raw.shutdown();
            }

            // still undecided: its producer is asked, and its answer (roll back) is what happens
            await().atMost(Duration.ofSeconds(30)).until(() -> checked.contains("unknown-theirs"));
            assertThat(ferry.server().broker().store().nextOffset("TopicTxTheirs", sent.getMessageQueue()
                    .getQueueId())).isZero();
        }
    }

    private static org.apache.rocketmq.remoting.protocol.RemotingCommand endTransaction(String group,
                                                                                       long queueOffset,
                                                                                       long commitLogOffset) {
        org.apache.rocketmq.remoting.protocol.RemotingCommand request = org.apache.rocketmq.remoting.protocol
                .RemotingCommand.createRequestCommand(dev.ferry.remoting.protocol.RequestCode.END_TRANSACTION, null);
        request.addExtField("producerGroup", group);
        request.addExtField("tranStateTableOffset", Long.toString(queueOffset));
        request.addExtField("commitLogOffset", Long.toString(commitLogOffset));
        request.addExtField("commitOrRollback", "8");
        request.addExtField("fromTransactionCheck", "false");
        request.addExtField("msgId", "intruder");
        return request;
    }
}
