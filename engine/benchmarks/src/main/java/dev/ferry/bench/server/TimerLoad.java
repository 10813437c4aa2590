package dev.ferry.bench.server;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * Timer messages at a steady rate through the Apache client, each asking for delivery a random time ahead
 * ({@code Message.setDeliverTimeMs}), read back by a push consumer subscribed before the first one is sent.
 */
final class TimerLoad {
    /** The property holding the delivery time a message asked for, so that the broker's own properties are not needed. */
    static final String REQUESTED_PROPERTY = "requestedDeliverMs";
    private static final String PROBE_PREFIX = "probe-";
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(60);
    /** How long after the last message is due its arrival is awaited. */
    private static final Duration ARRIVAL_GRACE = Duration.ofSeconds(60);
    /** How long the consumer keeps listening after the last arrival, so that late duplicates are counted. */
    private static final Duration DUPLICATE_WATCH = Duration.ofSeconds(3);
    private static final String ARRIVALS_HEADER =
            "key,requestedMs,TIMER_OUT_MS,TIMER_DEQUEUE_MS,storeTimestamp,queueId,queueOffset,receivedMicros";

    /**
     * The load's shape.
     *
     * @param perSecond  timer messages sent per second, paced
     * @param warmup     sending time before the measured part: the same messages, checked for loss, duplicates and
     *                   early arrival but not measured for lateness
     * @param duration   sending time of the measured part
     * @param minDelayMs shortest delay asked for
     * @param maxDelayMs longest delay asked for (uniform between the two)
     * @param seed       seed of the delays
     * @param queues     queues of the topic
     * @param size       body bytes
     */
    record Shape(int perSecond, Duration warmup, Duration duration, long minDelayMs, long maxDelayMs, long seed,
            int queues, int size) {
        Shape {
            if (perSecond < 1 || warmup.isNegative() || duration.toSeconds() < 1 || minDelayMs < 1
                    || maxDelayMs < minDelayMs || queues < 1 || size < 0) {
                throw new IllegalArgumentException("not a timer load: " + this);
            }
        }

        int warmupMessages() {
            return Math.toIntExact(perSecond * warmup.toSeconds());
        }

        int total() {
            return Math.toIntExact(warmupMessages() + perSecond * duration.toSeconds());
        }
    }

    /**
     * A finished run.
     *
     * @param deliveries        what arrived, and when
     * @param sentPerSecond     the measured part's send rate as achieved
     * @param brokerCpuNanosPer the broker's CPU time from the first timer message sent to the last arrival, per message
     * @param clientCpuNanosPer this JVM's over the same time, per message
     */
    record Run(TimerDeliveries deliveries, double sentPerSecond, double brokerCpuNanosPer, double clientCpuNanosPer) {
    }

    private final String nameServer;
    private final String prefix;
    private final Clock clock;
    /** Where every timer message's arrival is written as a CSV line after the run, or null. */
    private final Path arrivalsFile;
    private final Queue<String> arrivals = new ConcurrentLinkedQueue<>();

    TimerLoad(String nameServer, String prefix, Clock clock, Path arrivalsFile) {
        this.nameServer = nameServer;
        this.prefix = prefix;
        this.clock = clock;
        this.arrivalsFile = arrivalsFile;
    }

    Run run(Shape shape, LongSupplier brokerCpu) throws Exception {
        String topic = prefix + "Timer";
        TimerDeliveries deliveries = new TimerDeliveries(shape.total(), shape.warmupMessages());
        Set<Integer> probedQueues = ConcurrentHashMap.newKeySet();
        DefaultMQProducer producer = new DefaultMQProducer(prefix + "timer");
        producer.setNamesrvAddr(nameServer);
        producer.setInstanceName(prefix + "timer" + System.nanoTime());
        producer.setDefaultTopicQueueNums(shape.queues());
        producer.setSendMsgTimeout(10_000);
        producer.start();
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(prefix + "timer");
        try {
            producer.send(probe(topic, 0)); // creates the topic
            int queues = producer.fetchPublishMessageQueues(topic).size();
            if (queues != shape.queues()) {
                throw new IllegalStateException("the topic has " + queues + " queues, not " + shape.queues());
            }
            consumer.setNamesrvAddr(nameServer);
            consumer.setInstanceName(prefix + "timer" + System.nanoTime());
            consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET);
            consumer.subscribe(topic, "*");
            consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
                Instant now = clock.instant();
                for (MessageExt m : messages) {
                    if (deliveries.received(now, m.getKeys(), m.getUserProperty(REQUESTED_PROPERTY),
                            m.getProperty(MessageConst.PROPERTY_TIMER_DEQUEUE_MS), m.getStoreTimestamp())) {
                        logArrival(now, m);
                    } else if (m.getKeys() != null && m.getKeys().startsWith(PROBE_PREFIX)) {
                        probedQueues.add(m.getQueueId());
                    }
                }
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
            consumer.start();
            awaitEveryQueuePulled(producer, topic, probedQueues, shape.queues());
            long cpuBefore = brokerCpu.getAsLong();
            long ownBefore = ClientLoad.ownCpuNanos();
            double sentPerSecond = send(producer, topic, shape, deliveries);
            long lastDue = clock.millis() + shape.maxDelayMs();
            awaitArrivals(deliveries, lastDue);
            double messages = shape.total();
            Run run = new Run(deliveries, sentPerSecond, (brokerCpu.getAsLong() - cpuBefore) / messages,
                    (ClientLoad.ownCpuNanos() - ownBefore) / messages);
            Thread.sleep(DUPLICATE_WATCH.toMillis()); // listening on, so that a late second arrival is counted
            if (arrivalsFile != null) {
                List<String> lines = new ArrayList<>(List.of(ARRIVALS_HEADER));
                lines.addAll(arrivals);
                Files.createDirectories(arrivalsFile.toAbsolutePath().getParent());
                Files.write(arrivalsFile, lines);
            }
            return run;
        } finally {
            consumer.shutdown();
            producer.shutdown();
        }
    }

    private void logArrival(Instant now, MessageExt m) {
        if (arrivalsFile != null) {
            arrivals.add(String.join(",", m.getKeys(), m.getUserProperty(REQUESTED_PROPERTY),
                    String.valueOf(m.getProperty(MessageConst.PROPERTY_TIMER_OUT_MS)),
                    String.valueOf(m.getProperty(MessageConst.PROPERTY_TIMER_DEQUEUE_MS)),
                    Long.toString(m.getStoreTimestamp()), Integer.toString(m.getQueueId()),
                    Long.toString(m.getQueueOffset()),
                    Long.toString(now.getEpochSecond() * 1_000_000 + now.getNano() / 1000)));
        }
    }

    private static Message probe(String topic, int number) {
        Message message = new Message(topic, "P", new byte[16]);
        message.setKeys(PROBE_PREFIX + number);
        return message;
    }

    /**
     * Sends plain probes (each to the next queue) until the consumer has received one from every queue: from then on
     * it pulls them all, so a timer message's wait for the consumer's rebalance is no part of its lateness.
     */
    private static void awaitEveryQueuePulled(DefaultMQProducer producer, String topic, Set<Integer> probedQueues,
                                              int queues) throws Exception {
        long deadline = System.nanoTime() + PROBE_TIMEOUT.toNanos();
        for (int i = 1; probedQueues.size() < queues; i++) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the consumer received probes from queues " + probedQueues + " only, "
                        + "within " + PROBE_TIMEOUT.toSeconds() + " s");
            }
            producer.send(probe(topic, i));
            Thread.sleep(100); // one probe per queue every 400 ms while the consumer takes its queues
        }
    }

    /** Sends every timer message of the run, paced; returns the measured part's achieved rate. */
    private double send(DefaultMQProducer producer, String topic, Shape shape, TimerDeliveries deliveries)
            throws Exception {
        SplittableRandom delays = new SplittableRandom(shape.seed());
        byte[] body = ClientLoad.body(shape.size());
        AtomicInteger next = new AtomicInteger();
        AtomicReference<Throwable> firstFailure = new AtomicReference<>();
        long[] measuredFrom = new long[1];
        ClientLoad.sendPaced(shape.perSecond(), shape.warmup(), shape.duration(), from -> measuredFrom[0] = from,
                () -> {
                    int number = next.getAndIncrement();
                    long requested = clock.millis() + delays.nextLong(shape.minDelayMs(), shape.maxDelayMs() + 1);
                    Message message = new Message(topic, "T", body);
                    message.setKeys(TimerDeliveries.key(number));
                    message.putUserProperty(REQUESTED_PROPERTY, Long.toString(requested));
                    message.setDeliverTimeMs(requested);
                    producer.send(message, new SendCallback() {
                        @Override
                        public void onSuccess(SendResult result) {
                            deliveries.answered(number, result.getSendStatus() == SendStatus.SEND_OK);
                        }

                        @Override
                        public void onException(Throwable e) {
                            firstFailure.compareAndSet(null, e);
                            deliveries.answered(number, false);
                        }
                    });
                });
        long measuredNanos = System.nanoTime() - measuredFrom[0];
        if (firstFailure.get() != null) {
            System.out.println("  (a timer send failed: " + firstFailure.get() + ")");
        }
        return shape.perSecond() * shape.duration().toSeconds() / (measuredNanos / 1e9);
    }

    /** Waits until every message has arrived, or until {@link #ARRIVAL_GRACE} after the last one was due. */
    private void awaitArrivals(TimerDeliveries deliveries, long lastDueMillis) throws InterruptedException {
        long deadline = lastDueMillis + ARRIVAL_GRACE.toMillis();
        while (!deliveries.complete() && clock.millis() < deadline) {
            Thread.sleep(100); // polling the counts; the run's figures are taken after it
        }
        if (!deliveries.complete()) {
            System.out.println("  (not every timer message arrived within " + ARRIVAL_GRACE.toSeconds()
                    + " s of its time)");
        }
    }
}
