package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import dev.ferry.api.Message;
import dev.ferry.api.SendResult;
import dev.ferry.client.peer.ClusterUnderTest;
import dev.ferry.client.peer.FerryServerCluster;
import dev.ferry.format.SystemTopics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.trace.TraceBean;
import org.apache.rocketmq.client.trace.TraceContext;
import org.apache.rocketmq.client.trace.TraceDataEncoder;
import org.apache.rocketmq.client.trace.TraceType;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageType;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.Test;

/**
 * Ferry's client and Apache's 5.3.3 client, both with message trace on, write one trace of a message one sends and the
 * other consumes: what {@code mqadmin queryMsgTraceById} reads (QUERY_MESSAGE by the message id on the trace topic,
 * decoded by Apache's decoder) holds the sender's Pub and the consumer's SubBefore and SubAfter, and a transaction's
 * EndTransaction.
 */
class MessageTraceInteropTest extends AgainstCluster {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void shouldShowOneTraceWhenFerrySendsAndApacheConsumes() throws Exception {
        String topic = ClientTestSupport.unique("TraceToApache");
        String producerGroup = ClientTestSupport.unique("PG");
        String consumerGroup = ClientTestSupport.unique("CG");
        SendResult sent;
        try (Producer producer = client.producer(ProducerConfig.builder(producerGroup).enableMsgTrace(true).build())) {
            sent = producer.send(Message.builder(topic).body("traced".getBytes(StandardCharsets.UTF_8)).tags("TagA")
                    .keys("order-1").build());
        }
        AtomicBoolean consumed = new AtomicBoolean();
        DefaultMQPushConsumer apache = new DefaultMQPushConsumer(consumerGroup, true, null);
        apache.setNamesrvAddr(cluster.nameServerAddress());
        apache.setInstanceName(ClientTestSupport.unique("apache"));
        apache.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        apache.setHeartbeatBrokerInterval(1000);
        apache.subscribe(topic, "*");
        apache.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            consumed.set(true);
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        apache.start();
        try {
            await().atMost(WAIT).untilTrue(consumed);
            List<TraceContext> trace = awaitTrace(sent.msgId());
            TraceContext pub = only(trace, TraceType.Pub);
            assertThat(pub.getGroupName()).isEqualTo(producerGroup);
            TraceBean bean = pub.getTraceBeans().get(0);
            assertThat(bean.getTopic()).isEqualTo(topic);
            assertThat(bean.getTags()).isEqualTo("TagA");
            assertThat(bean.getKeys()).isEqualTo("order-1");
            assertThat(bean.getOffsetMsgId()).isEqualTo(sent.offsetMsgId());
            assertThat(pub.isSuccess()).isTrue();
            assertThat(only(trace, TraceType.SubBefore).getGroupName()).isEqualTo(consumerGroup);
            assertThat(only(trace, TraceType.SubAfter).isSuccess()).isTrue();
            assertThat(only(trace, TraceType.SubAfter).getGroupName()).isEqualTo(consumerGroup);
        } finally {
            apache.shutdown();
        }
    }

    @Test
    void shouldShowOneTraceWhenApacheSendsAndFerryConsumes() throws Exception {
        String topic = ClientTestSupport.unique("TraceFromApache");
        String producerGroup = ClientTestSupport.unique("PG");
        String consumerGroup = ClientTestSupport.unique("CG");
        DefaultMQProducer apache = new DefaultMQProducer(producerGroup, true, null);
        apache.setNamesrvAddr(cluster.nameServerAddress());
        apache.setInstanceName(ClientTestSupport.unique("apache"));
        apache.start();
        AtomicBoolean consumed = new AtomicBoolean();
        PushConsumer consumer = null;
        try {
            // the producer stays up until its trace is stored: Apache's shuts its trace sender down without waiting
            org.apache.rocketmq.client.producer.SendResult sent = apache.send(
                    new org.apache.rocketmq.common.message.Message(topic, "TagA", "order-2",
                            "traced".getBytes(StandardCharsets.UTF_8)));
            consumer = client.pushConsumer(PushConsumerConfig.builder(consumerGroup).subscribe(topic, "*")
                    .consumeFromWhere(dev.ferry.client.ConsumeFromWhere.FIRST_OFFSET).enableMsgTrace(true).build(),
                    message -> consumed.set(true));
            await().atMost(WAIT).untilTrue(consumed);
            List<TraceContext> trace = awaitTrace(sent.getMsgId());
            assertThat(only(trace, TraceType.Pub).getGroupName()).isEqualTo(producerGroup);
            TraceContext before = only(trace, TraceType.SubBefore);
            assertThat(before.getGroupName()).isEqualTo(consumerGroup);
            assertThat(before.getTraceBeans().get(0).getKeys()).isEqualTo("order-2");
            TraceContext after = only(trace, TraceType.SubAfter);
            assertThat(after.getRequestId()).isEqualTo(before.getRequestId());
            assertThat(after.isSuccess()).isTrue();
            assertThat(after.getGroupName()).isEqualTo(consumerGroup);
        } finally {
            if (consumer != null) {
                consumer.close();
            }
            apache.shutdown();
        }
    }

    @Test
    void shouldShowTheEndOfATransactionWhenFerrySendsItInOne() throws Exception {
        String topic = ClientTestSupport.unique("TraceTx");
        String producerGroup = ClientTestSupport.unique("PG");
        TransactionSendResult committed;
        try (Producer producer = client.producer(ProducerConfig.builder(producerGroup).enableMsgTrace(true).build(),
                message -> TransactionState.COMMIT)) {
            committed = producer.sendInTransaction(Message.builder(topic).body("tx".getBytes(StandardCharsets.UTF_8))
                    .tags("TagT").keys("order-3").build(), message -> TransactionState.COMMIT);
        }
        List<TraceContext> trace = awaitTrace(cluster, committed.sendResult().msgId(), WAIT,
                found -> kinds(found) == 2);
        TraceContext pub = only(trace, TraceType.Pub);
        assertThat(pub.getTraceBeans().get(0).getMsgType()).isEqualTo(MessageType.Trans_Msg_Half);
        TraceContext end = only(trace, TraceType.EndTransaction);
        assertThat(end.getGroupName()).isEqualTo(producerGroup);
        TraceBean bean = end.getTraceBeans().get(0);
        assertThat(bean.getTopic()).isEqualTo(topic);
        assertThat(bean.getTags()).isEqualTo("TagT");
        assertThat(bean.getKeys()).isEqualTo("order-3");
        assertThat(bean.getMsgType()).isEqualTo(MessageType.Trans_msg_Commit);
        assertThat(bean.getTransactionId()).isEqualTo(committed.sendResult().msgId());
        assertThat(bean.getTransactionState()).isEqualTo(LocalTransactionState.COMMIT_MESSAGE);
        assertThat(bean.isFromTransactionCheck()).isFalse();
    }

    /**
     * Against a ferry-server of its own that checks every second: the shared broker's check of one transaction can
     * wait minutes behind the other tests' undecided ones.
     */
    @Test
    void shouldShowTheEndOfATransactionItsCheckEnds() throws Exception {
        String topic = ClientTestSupport.unique("TraceTxCheck");
        String producerGroup = ClientTestSupport.unique("PG");
        try (FerryServerCluster quick = FerryServerCluster.start(b -> b.transactionChecks(Duration.ofSeconds(1), 15));
             FerryClient quickClient = ClientTestSupport.client(quick, directory);
             Producer producer = quickClient.producer(ProducerConfig.builder(producerGroup).enableMsgTrace(true)
                     .build(), message -> TransactionState.COMMIT)) {
            TransactionSendResult checked = producer.sendInTransaction(Message.builder(topic)
                    .body("tx".getBytes(StandardCharsets.UTF_8)).keys("order-4").build(),
                    message -> TransactionState.UNKNOWN);
            // the producer stays up until the broker checked the undecided one and its answer's trace is stored
            List<TraceContext> checkedTrace = awaitTrace(quick, checked.sendResult().msgId(), WAIT, found -> found
                    .stream().anyMatch(record -> record.getTraceBeans().get(0).isFromTransactionCheck()));
            // the local transaction's end, left to the check, then the check's
            assertThat(checkedTrace).filteredOn(record -> record.getTraceType() == TraceType.EndTransaction)
                    .extracting(record -> record.getTraceBeans().get(0).getTransactionState(),
                            record -> record.getTraceBeans().get(0).isFromTransactionCheck())
                    .containsExactlyInAnyOrder(tuple(LocalTransactionState.UNKNOW, false),
                            tuple(LocalTransactionState.COMMIT_MESSAGE, true));
            TraceBean end = checkedTrace.stream().filter(record -> record.getTraceBeans().get(0)
                    .isFromTransactionCheck()).findFirst().orElseThrow().getTraceBeans().get(0);
            assertThat(end.getTopic()).isEqualTo(topic);
            assertThat(end.getKeys()).isEqualTo("order-4");
            assertThat(end.getTransactionId()).isEqualTo(checked.sendResult().msgId());
        }
    }

    @Test
    void shouldShowOneTraceWhenFerrySendsAndFerrysPullConsumerPolls() throws Exception {
        String topic = ClientTestSupport.unique("TracePull");
        String producerGroup = ClientTestSupport.unique("PG");
        String consumerGroup = ClientTestSupport.unique("CG");
        SendResult sent;
        try (Producer producer = client.producer(ProducerConfig.builder(producerGroup).enableMsgTrace(true).build())) {
            sent = producer.send(Message.builder(topic).body("polled".getBytes(StandardCharsets.UTF_8))
                    .keys("order-5").build());
        }
        List<String> polled = new ArrayList<>();
        try (PullConsumer consumer = client.pullConsumer(PullConsumerConfig.builder(consumerGroup)
                .consumeFromWhere(dev.ferry.client.ConsumeFromWhere.FIRST_OFFSET).enableMsgTrace(true).build())) {
            consumer.subscribe(topic, "*");
            await().atMost(WAIT).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(message -> polled.add(message.msgId()));
                return polled.contains(sent.msgId());
            });
        }
        List<TraceContext> trace = awaitTrace(sent.msgId());
        assertThat(only(trace, TraceType.Pub).getGroupName()).isEqualTo(producerGroup);
        TraceContext before = only(trace, TraceType.SubBefore);
        assertThat(before.getGroupName()).isEqualTo(consumerGroup);
        assertThat(before.getTraceBeans().get(0).getKeys()).isEqualTo("order-5");
        TraceContext after = only(trace, TraceType.SubAfter);
        assertThat(after.getRequestId()).isEqualTo(before.getRequestId());
        assertThat(after.isSuccess()).isTrue();
        assertThat(after.getGroupName()).isEqualTo(consumerGroup);
    }

    /** The records of {@code msgId}'s trace, once its Pub, SubBefore and SubAfter are all stored and indexed. */
    private List<TraceContext> awaitTrace(String msgId) throws Exception {
        return awaitTrace(cluster, msgId, WAIT, found -> kinds(found) == 3);
    }

    private static long kinds(List<TraceContext> records) {
        return records.stream().map(TraceContext::getTraceType).distinct().count();
    }

    /** The records of {@code msgId}'s trace, once those stored and indexed are {@code complete}. */
    private static List<TraceContext> awaitTrace(ClusterUnderTest on, String msgId, Duration wait,
                                                 Predicate<List<TraceContext>> complete) throws Exception {
        DefaultMQAdminExt admin = ClientTestSupport.admin(on);
        try {
            List<TraceContext> found = new ArrayList<>();
            await().atMost(wait).pollInterval(Duration.ofMillis(500)).ignoreExceptions().until(() -> {
                found.clear();
                found.addAll(traceOf(admin, msgId));
                return complete.test(found);
            });
            return found;
        } finally {
            admin.shutdown();
        }
    }

    @SuppressWarnings("deprecation") // the MQAdmin query mqadmin queryMsgTraceById runs
    private static List<TraceContext> traceOf(DefaultMQAdminExt admin, String msgId) throws Exception {
        List<TraceContext> records = new ArrayList<>();
        for (MessageExt message : admin.queryMessage(SystemTopics.TRACE_TOPIC, msgId, 64, 0, Long.MAX_VALUE)
                .getMessageList()) {
            for (TraceContext record : TraceDataEncoder.decoderFromTraceDataString(
                    new String(message.getBody(), StandardCharsets.UTF_8))) {
                if (record.getTraceBeans().get(0).getMsgId().equals(msgId)) {
                    records.add(record);
                }
            }
        }
        return records;
    }

    private static TraceContext only(List<TraceContext> trace, TraceType type) {
        List<TraceContext> ofType = trace.stream().filter(record -> record.getTraceType() == type).toList();
        assertThat(ofType).as(type + " records").hasSize(1);
        return ofType.get(0);
    }
}
