package dev.ferry.client;

import dev.ferry.api.MessageModel;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.format.DelayLevels;
import dev.ferry.spi.OffsetStore;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;

/**
 * Concurrent consumption for a push consumer: each queue's pulled messages are cut into batches of up to
 * {@code consumeBatchSize} (a short one waits up to {@code consumeBatchWait} for more of its queue) and handed to
 * the listener on a pool of {@code consumeThreads}. After each batch the queue's offset moves to the lowest offset
 * still in flight, unless the queue was dropped meanwhile.
 *
 * <p>A failed message is sent back to the broker for redelivery, at the delay level its redelivery policy asks for
 * (clustering), or dropped with a warning (broadcasting); if the send-back fails it is consumed again here after a
 * pause. With {@code pauseQueueAfterFailures} it is retried here instead, holding its offset, until it has failed
 * that often in a row: then its queue is paused (see {@link QueuePauses}) and its messages wait.
 */
final class ConcurrentConsumeService implements ConsumeService {
    private static final System.Logger LOG = System.getLogger(ConcurrentConsumeService.class.getName());
    private static final Duration LOCAL_RETRY_PAUSE = Duration.ofSeconds(5);
    private static final Comparator<ReceivedMessage> QUEUE_ORDER =
            Comparator.comparingLong(ReceivedMessage::queueOffset);

    private final PushConsumerConfig config;
    private final BatchDelivery delivery;
    private final OffsetStore offsets;
    private final SendBack sendBack;
    private final Later later;
    private final QueuePauses pauses;
    private final InPlaceRetries retries;
    private final ExecutorService pool;
    private final Object lock = new Object();
    /** Messages of a queue waiting to fill a batch, or held while the queue is paused; under {@link #lock}. */
    private final Map<ProcessQueue, List<ReceivedMessage>> waiting = new HashMap<>();
    /** Queues whose waiting messages are handed over when their batch wait ends; under {@link #lock}. */
    private final Set<ProcessQueue> flushScheduled = new HashSet<>();
    /** Failed deliveries in a row of messages retried here. */
    private final Map<Attempt, Integer> failures = new ConcurrentHashMap<>();
    private volatile boolean stopping;

    private record Attempt(ProcessQueue queue, long offset) {
    }

    /**
     * @param sendBack hands failed messages back to their broker
     * @param later    where a message is consumed again after a wait, and a short batch handed over
     * @param pauses   the queues paused on a poison message
     * @param threads  makes the consume threads
     */
    ConcurrentConsumeService(PushConsumerConfig config, BatchDelivery delivery, OffsetStore offsets,
                             SendBack sendBack, Later later, QueuePauses pauses, ThreadFactory threads) {
        this.config = config;
        this.delivery = delivery;
        this.offsets = offsets;
        this.sendBack = sendBack;
        this.later = later;
        this.pauses = pauses;
        this.retries = new InPlaceRetries(config, sendBack);
        this.pool = Executors.newFixedThreadPool(config.consumeThreads(), threads);
    }

    @Override
    public void submit(ProcessQueue queue, List<ReceivedMessage> messages) {
        List<List<ReceivedMessage>> ready;
        synchronized (lock) {
            List<ReceivedMessage> pending = waiting.computeIfAbsent(queue, q -> new ArrayList<>());
            pending.addAll(messages);
            if (queue.isPaused()) {
                return; // held until the queue is resumed
            }
            ready = cut(pending, config.consumeBatchWait().isZero());
            if (pending.isEmpty()) {
                waiting.remove(queue);
            } else if (flushScheduled.add(queue)) {
                later.after(config.consumeBatchWait(), () -> flush(queue));
            }
        }
        ready.forEach(batch -> run(queue, batch));
    }

    /** The batch wait of {@code queue} ended: what waits is handed over, full or not. */
    private void flush(ProcessQueue queue) {
        List<List<ReceivedMessage>> ready;
        synchronized (lock) {
            flushScheduled.remove(queue);
            if (queue.isPaused()) {
                return;
            }
            List<ReceivedMessage> pending = waiting.remove(queue);
            if (pending == null || queue.isDropped()) {
                return;
            }
            ready = cut(pending, true);
        }
        ready.forEach(batch -> run(queue, batch));
    }

    /** Takes full batches off {@code pending} (in queue order), and with {@code all} the short rest too. */
    private List<List<ReceivedMessage>> cut(List<ReceivedMessage> pending, boolean all) {
        pending.sort(QUEUE_ORDER);
        int size = config.consumeBatchSize();
        List<List<ReceivedMessage>> batches = new ArrayList<>();
        int start = 0;
        while (pending.size() - start >= size || all && start < pending.size()) {
            int end = Math.min(pending.size(), start + size);
            batches.add(List.copyOf(pending.subList(start, end)));
            start = end;
        }
        pending.subList(0, start).clear();
        return batches;
    }

    private void run(ProcessQueue queue, List<ReceivedMessage> batch) {
        try {
            pool.execute(() -> consume(queue, batch));
        } catch (RejectedExecutionException e) {
            // shutting down: the messages are pulled again from the committed offset
        }
    }

    private void consume(ProcessQueue queue, List<ReceivedMessage> batch) {
        if (queue.isDropped()) {
            // the queue went to another consumer: what was kept about it here goes too
            failures.keySet().removeIf(attempt -> attempt.queue().isDropped());
            synchronized (lock) {
                waiting.remove(queue);
            }
            return;
        }
        BatchDelivery.Outcome outcome = delivery.deliver(batch);
        // While the consumer closes, a failure is no consumption attempt (a listener may fail because its
        // container is going away): such messages stay uncommitted, their retry count untouched, and whoever
        // takes the queue next reads them again.
        boolean closing = stopping;
        List<ReceivedMessage> unfinished = outcome.failed().isEmpty() || closing ? outcome.failed()
                : handleFailures(queue, outcome);
        List<ReceivedMessage> done = new ArrayList<>(batch.size());
        for (ReceivedMessage message : batch) {
            if (!unfinished.contains(message)) {
                done.add(message);
                if (!failures.isEmpty()) {
                    failures.remove(new Attempt(queue, message.queueOffset()));
                }
            }
        }
        commit(queue, done);
    }

    private void commit(ProcessQueue queue, List<ReceivedMessage> done) {
        long offset = queue.consumed(done);
        if (!queue.isDropped()) {
            offsets.update(queue.queue(), offset, true);
        }
    }

    /** @return the failed messages that stay in flight here (retried later, or held by a pause) */
    private List<ReceivedMessage> handleFailures(ProcessQueue queue, BatchDelivery.Outcome outcome) {
        List<ReceivedMessage> failed = outcome.failed();
        if (config.messageModel() == MessageModel.BROADCASTING && !config.retriesInPlace()) {
            failed.forEach(m -> LOG.log(Level.WARNING, "broadcast message " + m.msgId()
                    + " failed and is dropped (broadcasting has no redelivery)"));
            return List.of();
        }
        List<ReceivedMessage> stay = new ArrayList<>();
        for (ReceivedMessage message : failed) {
            if (config.retriesInPlace() ? retryHere(queue, message, outcome.failure()) : !sentBack(queue, message)) {
                stay.add(message);
            }
        }
        return stay;
    }

    /** Hands a failed message to the broker; false (retried here after a pause) when it did not take it. */
    private boolean sentBack(ProcessQueue queue, ReceivedMessage message) {
        int level = config.redelivery().map(policy -> policy.delayLevel(message.reconsumeTimes() + 1,
                DelayLevels.DEFAULT)).orElse(0);
        try {
            sendBack.sendBack(message, config.maxReconsumeTimes(), level);
            return true;
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "send-back of " + message.msgId() + " failed; consuming it again here: "
                    + e.getMessage());
            later.after(LOCAL_RETRY_PAUSE, () -> submit(queue, List.of(message)));
            return false;
        }
    }

    /** Counts a failure of a message retried here; true when it stays in flight (retried later or paused on). */
    private boolean retryHere(ProcessQueue queue, ReceivedMessage message, Throwable failure) {
        int count = failures.merge(new Attempt(queue, message.queueOffset()), 1, Integer::sum);
        switch (retries.after(count)) {
            case PAUSE -> {
                synchronized (lock) {
                    if (pauses.of(queue).isEmpty()) {
                        pauses.pause(queue, message, count, failure);
                    } else {
                        waiting.computeIfAbsent(queue, q -> new ArrayList<>()).add(message); // held with the rest
                    }
                }
                return true;
            }
            case DEAD_LETTER -> {
                if (retries.deadLettered(message, count)) {
                    failures.remove(new Attempt(queue, message.queueOffset()));
                    return false;
                }
                later.after(LOCAL_RETRY_PAUSE, () -> submit(queue, List.of(message)));
                return true;
            }
            default -> {
                later.after(retries.wait(count), () -> submit(queue, List.of(message)));
                return true;
            }
        }
    }

    @Override
    public List<PausedQueue> paused() {
        synchronized (lock) {
            waiting.keySet().removeIf(ProcessQueue::isDropped); // held for a queue another consumer took
        }
        return pauses.list();
    }

    @Override
    public boolean resume(ProcessQueue queue, boolean skip) {
        QueuePauses.Pause pause = pauses.ending(queue, skip, retries).orElse(null);
        if (pause == null) {
            return false;
        }
        ReceivedMessage poison = pause.message();
        failures.remove(new Attempt(queue, poison.queueOffset()));
        List<ReceivedMessage> again = new ArrayList<>();
        synchronized (lock) {
            pauses.take(queue);
            List<ReceivedMessage> held = waiting.remove(queue);
            if (held != null) {
                again.addAll(held);
            }
        }
        if (skip) {
            commit(queue, List.of(poison));
        } else {
            again.add(poison);
        }
        pauses.resumed(queue.queue(), poison.msgId(), skip);
        submit(queue, again);
        return true;
    }

    @Override
    public void beginShutdown() {
        stopping = true;
    }

    @Override
    public void shutdown(Duration timeout) {
        beginShutdown();
        ConsumeService.shutdown(pool, timeout);
    }
}
