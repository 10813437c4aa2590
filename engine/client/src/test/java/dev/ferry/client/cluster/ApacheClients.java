package dev.ferry.client.cluster;

import java.nio.charset.StandardCharsets;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageExt;

/** Apache 5.3.3's clients as the cluster tests use them. */
final class ApacheClients {
    private ApacheClients() {
    }

    /** A started producer of {@code group}. */
    static DefaultMQProducer producer(String nameServers, String group) throws Exception {
        DefaultMQProducer producer = new DefaultMQProducer(group);
        producer.setNamesrvAddr(nameServers);
        producer.setInstanceName(group + "-" + System.nanoTime());
        producer.start();
        return producer;
    }

    /**
     * A started push consumer of {@code topic} from its first offset, handing each message's body (as text) and the
     * broker it came from to {@code received}.
     */
    static DefaultMQPushConsumer pushConsumer(String nameServers, String group, String topic,
                                              BiConsumer<String, String> received) throws Exception {
        return pushConsumer(nameServers, group, topic, "*", message -> received.accept(
                new String(message.getBody(), StandardCharsets.UTF_8), message.getBrokerName()));
    }

    /**
     * A started push consumer of {@code topic}'s {@code tags} from its first offset, handing each message to
     * {@code received}; it reads routes every second, so it finds a broker group's new master soon.
     */
    static DefaultMQPushConsumer pushConsumer(String nameServers, String group, String topic, String tags,
                                              Consumer<MessageExt> received) throws Exception {
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group);
        consumer.setNamesrvAddr(nameServers);
        consumer.setInstanceName(group + "-" + System.nanoTime());
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setPollNameServerInterval(1000);
        consumer.setHeartbeatBrokerInterval(1000); // a subscription a rebalance changed reaches the broker soon
        consumer.subscribe(topic, tags);
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            messages.forEach(received);
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        return consumer;
    }
}
