package dev.ferry.bench.server;

import dev.ferry.api.Message;
import dev.ferry.api.SendStatus;
import dev.ferry.client.ClientConfig;
import dev.ferry.client.ConsumeFromWhere;
import dev.ferry.client.FerryClient;
import dev.ferry.client.Producer;
import dev.ferry.client.ProducerConfig;
import dev.ferry.client.PushConsumer;
import dev.ferry.client.PushConsumerConfig;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import org.HdrHistogram.Histogram;

/**
 * The same load as {@link ClientLoad}, sent and read by Ferry's own client: the client comparison runs both
 * against the same broker. Each method returns its figure; none asserts.
 */
final class FerryClientLoad implements AutoCloseable {
    private final FerryClient client;
    private final String prefix;
    private final UnaryOperator<ProducerConfig.Builder> producerSettings;
    private volatile long tracesDropped;

    FerryClientLoad(String nameServer, String prefix) {
        this(nameServer, prefix, UnaryOperator.identity());
    }

    /** A load whose client has {@code settings} besides (credentials, TLS). */
    FerryClientLoad(String nameServer, String prefix, UnaryOperator<ClientConfig.Builder> settings) {
        this(nameServer, prefix, settings, UnaryOperator.identity());
    }

    /** A load whose producers have {@code producerSettings} besides (message trace, say). */
    FerryClientLoad(String nameServer, String prefix, UnaryOperator<ClientConfig.Builder> settings,
                    UnaryOperator<ProducerConfig.Builder> producerSettings) {
        this.client = new FerryClient(settings.apply(ClientConfig.builder(nameServer)).build());
        this.prefix = prefix;
        this.producerSettings = producerSettings;
    }

    private Producer producer(String group) {
        return client.producer(producerSettings.apply(ProducerConfig.builder(prefix + group)
                .sendTimeout(Duration.ofSeconds(10))).build());
    }

    private static Message message(String topic, byte[] body) {
        return Message.builder(topic).tags("T").body(body).build();
    }

    /** Messages per second sent synchronously by {@code threads} threads for {@code duration}. */
    double syncSend(int threads, int size, Duration duration) throws Exception {
        Producer producer = producer("sync");
        String topic = prefix + "Sync";
        byte[] payload = ClientLoad.body(size);
        producer.send(message(topic, payload)); // creates the topic
        double rate = SyncSendLoop.run(threads, duration,
                () -> producer.send(message(topic, payload)).status() == SendStatus.SEND_OK);
        producer.close();
        tracesDropped = producer.tracesDropped();
        return rate;
    }

    /** Trace records the last {@link #syncSend}'s producer lost (0 unless its producer traces). */
    long tracesDropped() {
        return tracesDropped;
    }

    /**
     * A producer kept for several sync-send measurements (its topic created), closed by the caller; closing it
     * closes this load's client too.
     */
    ClientLoad.SyncSender syncSender(int size) throws Exception {
        Producer producer = producer("sync");
        String topic = prefix + "Sync";
        byte[] payload = ClientLoad.body(size);
        return ClientLoad.SyncSender.open(() -> producer.send(message(topic, payload)).status() == SendStatus.SEND_OK,
                () -> {
                    try {
                        producer.close();
                    } finally {
                        close();
                    }
                });
    }

    /** Messages per second sent asynchronously, at most {@code inFlight} unanswered at a time. */
    double asyncSend(int inFlight, int size, Duration duration) throws Exception {
        Producer producer = producer("async");
        String topic = prefix + "Async";
        byte[] payload = ClientLoad.body(size);
        producer.send(message(topic, payload));
        long sent = sendAsync(producer, topic, payload, inFlight, Long.MAX_VALUE, duration);
        producer.close();
        return sent / (double) duration.toSeconds();
    }

    private static long sendAsync(Producer producer, String topic, byte[] payload, int inFlight, long count,
                                  Duration duration) throws Exception {
        return AsyncWindow.run(inFlight, count, duration,
                done -> producer.sendAsync(message(topic, payload)).whenComplete((result, error) -> done.accept(error)));
    }

    /** Fills a backlog of {@code count} messages, then returns the messages per second one push consumer reads it at. */
    double consumeBacklog(long count, int size) throws Exception {
        Producer producer = producer("backlog");
        String topic = prefix + "Backlog";
        byte[] payload = ClientLoad.body(size);
        producer.send(message(topic, payload));
        long filled = 1 + sendAsync(producer, topic, payload, 2048, count - 1, Duration.ofHours(1));
        producer.close();
        AtomicLong received = new AtomicLong();
        CountDownLatch done = new CountDownLatch(1);
        long start = System.nanoTime();
        PushConsumer consumer = client.pushConsumer(PushConsumerConfig.builder(prefix + "backlog")
                .subscribe(topic, "*").consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).build(), message -> {
                    if (received.incrementAndGet() >= filled) {
                        done.countDown();
                    }
                });
        if (!done.await(10, TimeUnit.MINUTES)) {
            System.out.println("  (backlog not drained: " + received.get() + " of " + filled + ")");
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        consumer.close();
        return received.get() / seconds;
    }

    /**
     * The end-to-end latency run of {@link ClientLoad#latency}, sent and read by Ferry's client: the same pacing,
     * warm-up and properties, a push consumer from the queues' ends.
     */
    Histogram latency(int perSecond, Duration warmup, Duration duration, int size) throws Exception {
        String topic = prefix + "Latency";
        Producer producer = producer("latency");
        byte[] payload = ClientLoad.body(size);
        producer.send(message(topic, payload)); // creates the topic
        LatencyRecorder recorder = new LatencyRecorder();
        PushConsumer consumer = client.pushConsumer(PushConsumerConfig.builder(prefix + "latency")
                .subscribe(topic, "*").consumeFromWhere(ConsumeFromWhere.LAST_OFFSET).build(),
                message -> recorder.received(System.nanoTime(), System.currentTimeMillis(),
                        message.property("sentNanos").orElse(null), message.property("sentMillis").orElse(null),
                        message.storeTimestamp()));
        Thread.sleep(TimeUnit.SECONDS.toMillis(ClientLoad.LATENCY_SETTLE_SECONDS)); // the consumer takes its queues
        long total = ClientLoad.sendPaced(perSecond, warmup, duration, recorder::startMeasuring, () -> producer.sendOneway(Message.builder(topic).tags("T").body(payload)
                .property("sentMillis", Long.toString(System.currentTimeMillis()))
                .property("sentNanos", Long.toString(System.nanoTime())).build()));
        recorder.awaitAll(total);
        consumer.close();
        producer.close();
        System.out.println("  latency (Ferry's client): " + recorder.slow());
        return recorder.histogram();
    }

    @Override
    public void close() {
        client.close();
    }
}
