package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.api.Message;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.api.SendResult;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;

/** Apache's rocketmq-client 5.3.3 and Ferry's client exchange messages through the same broker. */
class ApacheInteropTest extends AgainstCluster {
    private static final Duration WAIT = Duration.ofSeconds(60);


    @Test
    void shouldReceiveWhatAnApacheProducerSent() throws Exception {
        String topic = ClientTestSupport.unique("FromApache");
        DefaultMQProducer apache = new DefaultMQProducer(ClientTestSupport.unique("PG"));
        apache.setNamesrvAddr(cluster.nameServerAddress());
        apache.setHeartbeatBrokerInterval(1000); // a rebalance can skip a heartbeat; the next one comes soon
        apache.setInstanceName(ClientTestSupport.unique("apache"));
        apache.start();
        org.apache.rocketmq.client.producer.SendResult sent;
        try {
            org.apache.rocketmq.common.message.Message message = new org.apache.rocketmq.common.message.Message(
                    topic, "TagA", "KEY1 KEY2", "from apache".getBytes(StandardCharsets.UTF_8));
            message.putUserProperty("myProp", "myValue");
            sent = apache.send(message);
            apache.send(new org.apache.rocketmq.common.message.Message(topic, "TagB",
                    "x".repeat(10_000).getBytes(StandardCharsets.UTF_8)));
        } finally {
            apache.shutdown();
        }
        List<ReceivedMessage> received = new CopyOnWriteArrayList<>();
        PushConsumer consumer = client.pushConsumer(PushConsumerConfig.builder(ClientTestSupport.unique("CG"))
                .subscribe(topic, "*").consumeFromWhere(dev.ferry.client.ConsumeFromWhere.FIRST_OFFSET).build(),
                received::add);
        try {
            await().atMost(WAIT).until(() -> received.size() == 2);
        } finally {
            consumer.close();
        }
        ReceivedMessage first = received.stream().filter(m -> m.tags().orElse("").equals("TagA")).findFirst()
                .orElseThrow();
        assertThat(new String(first.body(), StandardCharsets.UTF_8)).isEqualTo("from apache");
        assertThat(first.keys()).containsExactly("KEY1", "KEY2");
        assertThat(first.property("myProp")).contains("myValue");
        assertThat(first.msgId()).isEqualTo(sent.getMsgId());
        ReceivedMessage big = received.stream().filter(m -> m.tags().orElse("").equals("TagB")).findFirst()
                .orElseThrow();
        assertThat(big.body()).hasSize(10_000);
    }

    @Test
    void shouldBeReceivedByAnApachePushConsumer() throws Exception {
        String topic = ClientTestSupport.unique("ToApache");
        Producer producer = producer();
        SendResult sent = producer.send(Message.builder(topic).body("from ferry".getBytes(StandardCharsets.UTF_8))
                .tags("TagA").keys("K1", "K2").property("myProp", "myValue").build());
        producer.send(Message.builder(topic).body("y".repeat(10_000).getBytes(StandardCharsets.UTF_8))
                .tags("TagB").build());

        List<MessageExt> received = new CopyOnWriteArrayList<>();
        DefaultMQPushConsumer apache = new DefaultMQPushConsumer(ClientTestSupport.unique("CG"));
        apache.setNamesrvAddr(cluster.nameServerAddress());
        apache.setInstanceName(ClientTestSupport.unique("apache"));
        apache.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        apache.subscribe(topic, "*");
        apache.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            received.addAll(messages);
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        apache.start();
        try {
            await().atMost(WAIT).until(() -> received.size() >= 2);
        } finally {
            apache.shutdown();
        }
        MessageExt first = received.stream().filter(m -> "TagA".equals(m.getTags())).findFirst().orElseThrow();
        assertThat(new String(first.getBody(), StandardCharsets.UTF_8)).isEqualTo("from ferry");
        assertThat(first.getKeys()).isEqualTo("K1 K2");
        assertThat(first.getUserProperty("myProp")).isEqualTo("myValue");
        assertThat(first.getMsgId()).isEqualTo(sent.msgId());
        MessageExt big = received.stream().filter(m -> "TagB".equals(m.getTags())).findFirst().orElseThrow();
        assertThat(big.getBody()).hasSize(10_000);
    }
}
