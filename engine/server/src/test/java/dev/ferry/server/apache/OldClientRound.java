package dev.ferry.server.apache;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.ConsumeOrderlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.consumer.listener.MessageListenerOrderly;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;

/**
 * One round of a new consumer group, run in a child JVM with an older Apache client on its class path (it uses only
 * the API every 4.x and 5.x client has): sends {@code count} messages keyed before-i, starts a consumer of a new group
 * from the last offset, (after {@code fillerBytes} of other messages, which make the topic old) sends count more
 * keyed after-i, and prints the keys it received within 30 s on one line starting "RECEIVED".
 *
 * <p>Arguments: name server, CONCURRENT|ORDERLY|LITE_PULL, topic, group, count, fillerBytes.
 */
public final class OldClientRound {
    private OldClientRound() {
    }

    public static void main(String[] args) throws Exception {
        String nameServer = args[0];
        String kind = args[1];
        String topic = args[2];
        String group = args[3];
        int count = Integer.parseInt(args[4]);
        int fillerBytes = Integer.parseInt(args[5]);
        DefaultMQProducer producer = new DefaultMQProducer("PG_" + group);
        producer.setNamesrvAddr(nameServer);
        producer.start();
        send(producer, topic, "before-", count);
        for (int sent = 0; sent < fillerBytes; sent += 1024) {
            producer.send(new Message(topic + "_FILLER", new byte[1024]));
        }
        awaitRouted(producer, topic);
        Set<String> received = ConcurrentHashMap.newKeySet();
        Runnable stop;
        if (kind.equals("LITE_PULL")) {
            DefaultLitePullConsumer lite = new DefaultLitePullConsumer(group);
            lite.setNamesrvAddr(nameServer);
            lite.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET);
            lite.subscribe(topic, "*");
            lite.start();
            Thread poller = new Thread(() -> {
                while (lite.isRunning()) {
                    lite.poll(200).forEach(m -> received.add(m.getKeys()));
                }
            });
            poller.setDaemon(true);
            poller.start();
            stop = lite::shutdown;
        } else {
            DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group);
            consumer.setNamesrvAddr(nameServer);
            consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET);
            consumer.subscribe(topic, "*");
            if (kind.equals("ORDERLY")) {
                consumer.registerMessageListener((MessageListenerOrderly) (messages, context) -> {
                    messages.forEach(m -> received.add(m.getKeys()));
                    return ConsumeOrderlyStatus.SUCCESS;
                });
            } else {
                consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
                    messages.forEach(m -> received.add(m.getKeys()));
                    return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
                });
            }
            consumer.start();
            if (fillerBytes > 0) {
                // On an old topic what is sent before the queues' starts are decided is not delivered, by design.
                awaitQueuesStarted(consumer, topic);
            }
            stop = consumer::shutdown;
        }
        send(producer, topic, "after-", count);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (received.stream().filter(k -> k.startsWith("after-")).count() < count && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        System.out.println("RECEIVED " + String.join(",", new TreeSet<>(received)));
        stop.run();
        producer.shutdown();
        System.exit(0);
    }

    /**
     * Waits until the name server routes {@code topic} (each call asks it): a consumer reads routes when it starts and
     * then only every 30 s, and a topic created by a send is announced by the broker's next registration.
     */
    private static void awaitRouted(DefaultMQProducer producer, String topic) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            try {
                if (!producer.fetchPublishMessageQueues(topic).isEmpty()) {
                    return;
                }
            } catch (Exception e) {
                // not routed yet
            }
            Thread.sleep(50);
        }
    }

    @SuppressWarnings("deprecation")
    private static void awaitQueuesStarted(DefaultMQPushConsumer consumer, String topic)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        // the group's retry topic's queue joins the table too: count the topic's own
        while (consumer.getDefaultMQPushConsumerImpl().getRebalanceImpl().getProcessQueueTable().keySet().stream()
                .filter(queue -> queue.getTopic().equals(topic)).count() < 4 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
    }

    private static void send(DefaultMQProducer producer, String topic, String prefix, int count) throws Exception {
        for (int i = 0; i < count; i++) {
            String key = prefix + i;
            producer.send(new Message(topic, "TagA", key, key.getBytes(StandardCharsets.UTF_8)));
        }
    }
}
