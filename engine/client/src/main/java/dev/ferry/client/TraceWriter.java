package dev.ferry.client;

import dev.ferry.api.Message;
import dev.ferry.format.Clock;
import dev.ferry.format.TraceRecord;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/**
 * Writes trace records to a trace topic in the background, batched as RocketMQ's clients batch them: the records of
 * one traced topic together, a message's body at most {@link TraceRecord#MAX_BATCH_CHARS}.
 *
 * <p>{@link #write} never blocks and never fails: a record that finds the queue full is dropped and counted, and so
 * are the records of a batch whose send failed. The traced send or delivery goes on either way. {@link #flush} runs on
 * the client's scheduler, and again as soon as a send ends while a batch's worth waits; at most
 * {@link #MAX_SENDS_IN_FLIGHT} batches are being sent at once, so a slow broker holds
 * records in the bounded queue instead of piling up sends. Thread-safe.
 */
final class TraceWriter implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(TraceWriter.class.getName());
    /** Records waiting to be sent (RocketMQ's client holds 2048 as well). */
    static final int QUEUE_CAPACITY = 2048;
    /** Records taken at a time: about one full trace message's worth. */
    static final int RECORDS_PER_FLUSH = 500;
    static final int MAX_SENDS_IN_FLIGHT = 4;
    static final Duration FLUSH_INTERVAL = Duration.ofMillis(100);
    /** RocketMQ's trace producers wait 5 s for a send. */
    static final Duration SEND_TIMEOUT = Duration.ofSeconds(5);
    static final String GROUP_PREFIX = "_INNER_TRACE_PRODUCER-";

    private final String traceTopic;
    private final Function<Message, CompletableFuture<?>> sender;
    private final Clock clock;
    private final Executor flusher;
    private final BlockingQueue<TraceRecord> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
    private final Semaphore sends = new Semaphore(MAX_SENDS_IN_FLIGHT);
    private final LongAdder dropped = new LongAdder();
    private final LongAdder written = new LongAdder();
    private volatile Runnable afterClose = () -> { };
    private volatile boolean closed;

    /**
     * @param traceTopic where the records go
     * @param sender     sends one trace message asynchronously (a producer without tracing of its own)
     * @param clock      times how long {@link #close} waits for the last sends
     * @param flusher    where a flush runs again at once when a send ends and a batch's worth is waiting, so that
     *                   a busy producer's records need not wait for the next round
     */
    TraceWriter(String traceTopic, Function<Message, CompletableFuture<?>> sender, Clock clock, Executor flusher) {
        this.traceTopic = traceTopic;
        this.sender = sender;
        this.clock = clock;
        this.flusher = flusher;
    }

    /**
     * A writer for a traced producer or consumer of {@code client}: it sends through a producer of its own (RocketMQ's
     * {@code _INNER_TRACE_PRODUCER-} group, whose sends are not traced) and is flushed every {@link #FLUSH_INTERVAL}
     * on the client's scheduler. Closing it closes that producer.
     *
     * @param role PRODUCE or CONSUME, as RocketMQ names the trace producer's group
     */
    static TraceWriter started(FerryClient client, String hostGroup, String role, String traceTopic) {
        Producer producer = client.producer(ProducerConfig.builder(GROUP_PREFIX + hostGroup + "-" + role)
                .sendTimeout(SEND_TIMEOUT).build());
        TraceWriter writer = new TraceWriter(traceTopic, producer::sendAsync, client.config().clock(),
                client.scheduler());
        ScheduledFuture<?> job = client.scheduler().scheduleWithFixedDelay(() -> FerryClient.runLogged(writer::flush),
                FLUSH_INTERVAL.toMillis(), FLUSH_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
        writer.afterClose = () -> {
            job.cancel(false);
            producer.close();
        };
        return writer;
    }

    String traceTopic() {
        return traceTopic;
    }

    /** Queues a record; drops it (counted) when the queue is full or the writer closed. */
    void write(TraceRecord record) {
        if (closed || !queue.offer(record)) {
            dropped.increment();
        }
    }

    /** Records lost: the queue was full, the writer closed, or their batch's send failed. */
    long dropped() {
        return dropped.sum();
    }

    /** Records the broker stored. */
    long written() {
        return written.sum();
    }

    /** Sends what is queued, batch by batch, while a send may start; the rest waits for the next flush. */
    void flush() {
        while (!queue.isEmpty() && sends.tryAcquire()) {
            List<TraceRecord> taken = new ArrayList<>(RECORDS_PER_FLUSH);
            queue.drainTo(taken, RECORDS_PER_FLUSH);
            List<List<TraceRecord>> batches = batches(taken);
            if (batches.isEmpty()) {
                sends.release();
                return;
            }
            sendAll(batches).whenComplete((ignored, failure) -> {
                sends.release();
                if (!closed && queue.size() >= RECORDS_PER_FLUSH) {
                    flushSoon();
                }
            });
        }
    }

    private void flushSoon() {
        try {
            flusher.execute(() -> FerryClient.runLogged(this::flush));
        } catch (RejectedExecutionException e) {
            // the client is closing: the scheduled flush or close takes the rest
        }
    }

    private CompletableFuture<Void> sendAll(List<List<TraceRecord>> batches) {
        List<CompletableFuture<?>> sent = new ArrayList<>(batches.size());
        for (List<TraceRecord> batch : batches) {
            sent.add(send(batch));
        }
        return CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new));
    }

    private CompletableFuture<?> send(List<TraceRecord> batch) {
        CompletableFuture<?> sent;
        try {
            // a key another client allowed and Ferry's builder refuses costs the batch, never the writer's permit
            sent = sender.apply(Message.builder(traceTopic).body(TraceRecord.body(batch))
                    .keys(List.copyOf(TraceRecord.keys(batch))).build());
        } catch (RuntimeException e) {
            sent = CompletableFuture.failedFuture(e);
        }
        return sent.handle((result, failure) -> {
            if (failure == null) {
                written.add(batch.size());
            } else {
                dropped.add(batch.size());
                LOG.log(Level.DEBUG, "sending " + batch.size() + " trace records to " + traceTopic + " failed: "
                        + failure);
            }
            return null;
        });
    }

    /** The records grouped by the topic they trace, each group cut where a body would grow too long. */
    static List<List<TraceRecord>> batches(List<TraceRecord> records) {
        Map<String, List<TraceRecord>> byTopic = new LinkedHashMap<>();
        for (TraceRecord record : records) {
            byTopic.computeIfAbsent(tracedTopic(record), t -> new ArrayList<>()).add(record);
        }
        List<List<TraceRecord>> batches = new ArrayList<>();
        for (List<TraceRecord> group : byTopic.values()) {
            List<TraceRecord> batch = new ArrayList<>();
            StringBuilder text = new StringBuilder();
            for (TraceRecord record : group) {
                record.appendTo(text);
                batch.add(record);
                if (text.length() >= TraceRecord.MAX_BATCH_CHARS) {
                    batches.add(batch);
                    batch = new ArrayList<>();
                    text.setLength(0);
                }
            }
            if (!batch.isEmpty()) {
                batches.add(batch);
            }
        }
        return batches;
    }

    /** The topic a record traces, where there is one in the record (consume records carry none). */
    private static String tracedTopic(TraceRecord record) {
        if (record instanceof TraceRecord.Pub pub) {
            return pub.topic();
        }
        return record instanceof TraceRecord.EndTransaction end ? end.topic() : "";
    }

    /** Sends what is queued and waits up to 3 s for the sends to finish; later records are dropped. */
    @Override
    public void close() {
        close(3_000);
    }

    void close(long timeoutMillis) {
        if (closed) {
            return;
        }
        closed = true;
        long deadline = clock.nanos() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        try {
            while (clock.nanos() - deadline < 0) {
                flush();
                // every permit back: no send in flight
                if (sends.tryAcquire(MAX_SENDS_IN_FLIGHT, 10, TimeUnit.MILLISECONDS)) {
                    sends.release(MAX_SENDS_IN_FLIGHT);
                    if (queue.isEmpty()) {
                        break;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List<TraceRecord> left = new ArrayList<>();
        queue.drainTo(left);
        dropped.add(left.size());
        afterClose.run();
    }
}
