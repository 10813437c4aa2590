package dev.ferry.bench.server;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.consumer.rebalance.AllocateMessageQueueAveragely;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.remoting.RPCHook;

/**
 * The load the harness puts on a broker, always through the Apache rocketmq-client so both
 * brokers see the same client. Each method returns its figure; none asserts.
 */
final class ClientLoad {
    /** Seconds a latency run gives its consumer to take its queues before the first send. */
    static final int LATENCY_SETTLE_SECONDS = 3;

    private final String nameServer;
    private final String prefix;
    /** Signs every request (ACL), or {@code null}. */
    private final RPCHook signer;
    private final boolean tls;

    ClientLoad(String nameServer, String prefix) {
        this(nameServer, prefix, null, false);
    }

    /** A load whose clients sign with {@code signer} (unless {@code null}) and speak TLS when {@code tls}. */
    ClientLoad(String nameServer, String prefix, RPCHook signer, boolean tls) {
        this.nameServer = nameServer;
        this.prefix = prefix;
        this.signer = signer;
        this.tls = tls;
    }

    private DefaultMQProducer producer(String group) throws Exception {
        DefaultMQProducer producer = new DefaultMQProducer(prefix + group, signer);
        producer.setUseTLS(tls);
        producer.setNamesrvAddr(nameServer);
        producer.setInstanceName(prefix + group + System.nanoTime());
        producer.setSendMsgTimeout(10_000);
        producer.start();
        return producer;
    }

    /** A body of {@code size} ASCII letters, the same for every load. */
    static byte[] body(int size) {
        byte[] body = new byte[size];
        for (int i = 0; i < size; i++) {
            body[i] = (byte) ('a' + i % 26);
        }
        return body;
    }

    /** Milliseconds from the process start until a sync send succeeds. */
    long timeToReadyMillis(ServerProcess server) throws Exception {
        DefaultMQProducer producer = producer("ready");
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        try {
            while (System.nanoTime() < deadline) {
                try {
                    SendResult result = producer.send(new Message(prefix + "Ready", "T", body(16)));
                    if (result.getSendStatus() == SendStatus.SEND_OK) {
                        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - server.startedNanos());
                    }
                } catch (Exception e) {
                    if (!server.isAlive()) {
                        throw new IllegalStateException(server.name + " died; see " + server.log, e);
                    }
                }
                Thread.sleep(50); // retrying a send while the broker starts
            }
            throw new IllegalStateException(server.name + " did not accept a message within 2 minutes; see "
                    + server.log);
        } finally {
            producer.shutdown();
        }
    }

    /**
     * A send measurement's rate, and the broker's and the load's (this JVM's: the client's) CPU time per message.
     *
     * @param perSecond         messages per second
     * @param brokerCpuNanosPer the broker's CPU time while measured, per message
     * @param clientCpuNanosPer this JVM's CPU time while measured, per message
     */
    record Sends(double perSecond, double brokerCpuNanosPer, double clientCpuNanosPer) {
    }

    /** CPU time this JVM (the load, the client in it) has used so far, in nanoseconds. */
    static long ownCpuNanos() {
        return ProcessHandle.current().info().totalCpuDuration().orElseThrow(() -> new IllegalStateException(
                "no CPU time for this process")).toNanos();
    }

    /** Messages per second sent synchronously by {@code threads} threads for {@code duration}. */
    double syncSend(int threads, int size, Duration duration) throws Exception {
        return syncSend(threads, size, Duration.ZERO, duration, () -> 0L).perSecond();
    }

    /**
     * Synchronous sends from {@code threads} threads: first for {@code warmup}, unmeasured, then for {@code duration},
     * reading the broker's CPU time ({@code brokerCpu}) around the measured part only.
     */
    Sends syncSend(int threads, int size, Duration warmup, Duration duration, LongSupplier brokerCpu)
            throws Exception {
        try (SyncSender sender = syncSender(size)) {
            if (!warmup.isZero()) {
                sender.measure(threads, warmup, () -> 0L);
            }
            return sender.measure(threads, duration, brokerCpu);
        }
    }

    /** A producer kept for several sync-send measurements (its topic created), closed by the caller. */
    SyncSender syncSender(int size) throws Exception {
        DefaultMQProducer producer = producer("sync");
        String topic = prefix + "Sync";
        byte[] payload = body(size);
        return SyncSender.open(() -> producer.send(new Message(topic, "T", payload)).getSendStatus()
                == SendStatus.SEND_OK, producer::shutdown);
    }

    /** One producer's synchronous sends of one body to one topic, measured as often as asked, whichever client. */
    static final class SyncSender implements AutoCloseable {
        private final SyncSendLoop.Send send;
        private final Runnable resources;

        private SyncSender(SyncSendLoop.Send send, Runnable resources) {
            this.send = send;
            this.resources = resources;
        }

        /**
         * A sender that sends with {@code send}, after one send that creates the topic; closing it closes
         * {@code resources} (shuts the producer and its client down), and so does a first send that fails.
         */
        static SyncSender open(SyncSendLoop.Send send, Runnable resources) throws Exception {
            try {
                send.send();
            } catch (Exception | Error e) {
                try {
                    resources.run();
                } catch (RuntimeException closing) {
                    e.addSuppressed(closing);
                }
                throw e;
            }
            return new SyncSender(send, resources);
        }

        /** Sends from {@code threads} threads for {@code duration}, reading {@code brokerCpu} around them. */
        Sends measure(int threads, Duration duration, LongSupplier brokerCpu) throws Exception {
            long cpuBefore = brokerCpu.getAsLong();
            long ownBefore = ownCpuNanos();
            double rate = SyncSendLoop.run(threads, duration, send);
            long own = ownCpuNanos() - ownBefore;
            long cpu = brokerCpu.getAsLong() - cpuBefore;
            double messages = Math.max(1, rate * duration.toNanos() / 1e9);
            return new Sends(rate, cpu / messages, own / messages);
        }

        @Override
        public void close() {
            resources.run();
        }
    }

    /** Messages per second sent asynchronously, at most {@code inFlight} unanswered at a time. */
    double asyncSend(int inFlight, int size, Duration duration) throws Exception {
        return asyncSend(inFlight, size, Duration.ZERO, duration, () -> 0L).perSecond();
    }

    /**
     * As {@link #syncSend(int, int, Duration, Duration, LongSupplier)}, sent asynchronously, {@code inFlight} at
     * most unanswered.
     */
    Sends asyncSend(int inFlight, int size, Duration warmup, Duration duration, LongSupplier brokerCpu)
            throws Exception {
        DefaultMQProducer producer = producer("async");
        String topic = prefix + "Async";
        producer.send(new Message(topic, "T", body(size)));
        if (!warmup.isZero()) {
            sendAsync(producer, topic, size, inFlight, Long.MAX_VALUE, warmup);
        }
        long cpuBefore = brokerCpu.getAsLong();
        long ownBefore = ownCpuNanos();
        long sent = sendAsync(producer, topic, size, inFlight, Long.MAX_VALUE, duration);
        long own = ownCpuNanos() - ownBefore;
        long cpu = brokerCpu.getAsLong() - cpuBefore;
        producer.shutdown();
        double messages = Math.max(1, sent);
        return new Sends(sent / (double) duration.toSeconds(), cpu / messages, own / messages);
    }

    private static long sendAsync(DefaultMQProducer producer, String topic, int size, int inFlight, long count,
                                  Duration duration) throws Exception {
        byte[] payload = body(size);
        return AsyncWindow.run(inFlight, count, duration, done -> producer.send(new Message(topic, "T", payload),
                new SendCallback() {
                    @Override
                    public void onSuccess(SendResult sendResult) {
                        done.accept(null);
                    }

                    @Override
                    public void onException(Throwable e) {
                        done.accept(e);
                    }
                }));
    }

    /**
     * Fills a backlog of {@code count} messages, then returns the messages per second one push consumer reads it at,
     * from its start (its start is part of what a client comparison compares).
     */
    double consumeBacklog(long count, int size) throws Exception {
        return consumeBacklog(count, size, 0, () -> 0L).fromStartPerSecond();
    }

    /**
     * A drain's rate, and the broker's and the load's (the consumer's) CPU time per message drained.
     *
     * @param perSecond          messages per second from the first message the listener received to the last: the rate
     *                           the broker and the client drain at
     * @param fromStartPerSecond messages per second from the consumer's start to the last message: includes the
     *                           client's start, whose waits do not depend on the broker (its first rebalance comes
     *                           1 s after its start, its first pulls 500 ms after that rebalance)
     * @param firstMessageMillis the consumer's start to the first message the listener received
     * @param brokerCpuNanosPer  the broker's CPU time while draining (from the consumer's start), per message
     * @param clientCpuNanosPer  this JVM's CPU time while draining (from the consumer's start), per message
     */
    record Drain(double perSecond, double fromStartPerSecond, double firstMessageMillis, double brokerCpuNanosPer,
            double clientCpuNanosPer) {
    }

    /**
     * As {@link #consumeBacklog(long, int)}, reading the broker's CPU time ({@code brokerCpu}) around the drain. With
     * {@code warmupCount > 0} a backlog of that many messages is filled and drained first, on a topic and group of its
     * own, unmeasured.
     */
    Drain consumeBacklog(long count, int size, long warmupCount, LongSupplier brokerCpu) throws Exception {
        if (warmupCount > 0) {
            drain(fill(prefix + "BacklogWarmup", warmupCount, size), prefix + "BacklogWarmup", "backlogwarmup",
                () -> 0L);
        }
        String topic = prefix + "Backlog";
        return drain(fill(topic, count, size), topic, "backlog", brokerCpu);
    }

    /** Sends {@code count} messages to {@code topic}, 2,048 in flight; returns how many were stored. */
    private long fill(String topic, long count, int size) throws Exception {
        DefaultMQProducer producer = producer("backlog");
        producer.send(new Message(topic, "T", body(size)));
        long filled = 1 + sendAsync(producer, topic, size, 2048, count - 1, Duration.ofHours(1));
        producer.shutdown();
        return filled;
    }

    private Drain drain(long filled, String topic, String group, LongSupplier brokerCpu) throws Exception {
        AtomicLong received = new AtomicLong();
        CountDownLatch done = new CountDownLatch(1);
        // When the listener first ran and how many messages it had then, and when it saw the last one.
        AtomicLong firstAt = new AtomicLong();
        AtomicLong firstCount = new AtomicLong();
        AtomicLong lastAt = new AtomicLong();
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(prefix + group, signer,
                new AllocateMessageQueueAveragely());
        consumer.setUseTLS(tls);
        consumer.setNamesrvAddr(nameServer);
        consumer.setInstanceName(prefix + group + System.nanoTime());
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setConsumeMessageBatchMaxSize(32);
        consumer.subscribe(topic, "*");
        Map<Integer, AtomicLong> perQueue = new ConcurrentSkipListMap<>();
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            perQueue.computeIfAbsent(context.getMessageQueue().getQueueId(), id -> new AtomicLong())
                .addAndGet(messages.size());
            long now = System.nanoTime();
            long total = received.addAndGet(messages.size());
            if (firstAt.compareAndSet(0, now)) {
                firstCount.set(total);
            }
            if (total >= filled && lastAt.compareAndSet(0, now)) {
                done.countDown();
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        long cpuBefore = brokerCpu.getAsLong();
        long ownBefore = ownCpuNanos();
        long start = System.nanoTime();
        consumer.start();
        // Messages per queue once a second: a queue that stalls (waiting for the next rebalance, say) shows.
        StringBuilder progress = new StringBuilder("  " + group + " drained per queue each second:");
        long deadline = start + TimeUnit.MINUTES.toNanos(10);
        while (!done.await(1, TimeUnit.SECONDS) && System.nanoTime() < deadline) {
            progress.append(' ').append(perQueue.values());
        }
        System.out.println(progress);
        if (done.getCount() > 0) {
            System.out.println("  (backlog not drained: " + received.get() + " of " + filled + ")");
        }
        long end = lastAt.get() != 0 ? lastAt.get() : System.nanoTime();
        long own = ownCpuNanos() - ownBefore;
        long cpu = brokerCpu.getAsLong() - cpuBefore;
        consumer.shutdown();
        double messages = Math.max(1, received.get());
        double fromStart = received.get() / ((end - start) / 1e9);
        // The first delivery's messages were counted at its start, so the rate after it counts only the rest.
        double afterFirst = firstAt.get() == 0 || end == firstAt.get() ? 0
            : (received.get() - firstCount.get()) / ((end - firstAt.get()) / 1e9);
        double firstMillis = firstAt.get() == 0 ? Double.NaN : (firstAt.get() - start) / 1e6;
        return new Drain(afterFirst, fromStart, firstMillis, cpu / messages, own / messages);
    }

    /**
     * Parks, not spins, until {@code nanoTime} (a {@link System#nanoTime} value): on two cores a spinning sender would
     * take a whole core from the broker and the consumer it measures, and the tail would be the scheduler's.
     */
    static void parkUntil(long nanoTime) {
        for (long wait = nanoTime - System.nanoTime(); wait > 0; wait = nanoTime - System.nanoTime()) {
            LockSupport.parkNanos(wait);
        }
    }

    /** A send that may fail. */
    interface Send {
        void send() throws Exception;
    }

    /**
     * Sends at {@code perSecond}, each when it is due, for {@code warmup} and then {@code duration}; tells
     * {@code measuring} the due time of the first send after the warm-up. Returns the sends after the warm-up.
     */
    static long sendPaced(int perSecond, Duration warmup, Duration duration, LongConsumer measuring, Send send)
            throws Exception {
        long interval = TimeUnit.SECONDS.toNanos(1) / perSecond;
        long warmupSends = perSecond * warmup.toSeconds();
        long total = perSecond * duration.toSeconds();
        long next = System.nanoTime();
        for (long i = 0; i < warmupSends + total; i++) {
            if (i == warmupSends) {
                measuring.accept(next);
            }
            parkUntil(next);
            send.send();
            next += interval;
        }
        return total;
    }

    /**
     * End-to-end latency at a fixed rate: sends paced at {@code perSecond} for {@code warmup}, unrecorded, then for
     * {@code duration}, recording send-to-listener time of each message sent after the warm-up. The warm-up is
     * the same traffic, so both JVMs have compiled the paths it takes (a held pull woken by an arrival, oneway
     * sends: paths the earlier phases never ran) before anything is measured.
     */
    Histogram latency(int perSecond, Duration warmup, Duration duration, int size) throws Exception {
        String topic = prefix + "Latency";
        DefaultMQProducer producer = producer("latency");
        producer.send(new Message(topic, "T", body(size)));
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(prefix + "latency", signer,
                new AllocateMessageQueueAveragely());
        consumer.setUseTLS(tls);
        consumer.setNamesrvAddr(nameServer);
        consumer.setInstanceName(prefix + "latency" + System.nanoTime());
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET);
        consumer.subscribe(topic, "*");
        LatencyRecorder recorder = new LatencyRecorder();
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            long now = System.nanoTime();
            long nowMillis = System.currentTimeMillis();
            for (var m : messages) {
                recorder.received(now, nowMillis, m.getUserProperty("sentNanos"), m.getUserProperty("sentMillis"),
                        m.getStoreTimestamp());
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        Thread.sleep(TimeUnit.SECONDS.toMillis(LATENCY_SETTLE_SECONDS)); // the consumer takes its queues first
        byte[] payload = body(size);
        long total = sendPaced(perSecond, warmup, duration, recorder::startMeasuring, () -> {
            Message message = new Message(topic, "T", payload);
            message.putUserProperty("sentMillis", Long.toString(System.currentTimeMillis()));
            message.putUserProperty("sentNanos", Long.toString(System.nanoTime()));
            producer.sendOneway(message);
        });
        recorder.awaitAll(total);
        consumer.shutdown();
        producer.shutdown();
        System.out.println("  latency: " + recorder.slow());
        return recorder.histogram();
    }
}
