package dev.ferry.client;

import dev.ferry.api.ReceivedMessage;
import dev.ferry.format.Clock;
import dev.ferry.spi.OffsetStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.function.Predicate;

/**
 * Orderly consumption for a push consumer: each queue's messages reach the listener in queue order, a batch of up
 * to {@code consumeBatchSize} at a time (a short batch waits up to {@code consumeBatchWait} for more), one consume
 * task per queue (several queues in parallel on {@code consumeThreads}). A clustering consumer reads a queue only
 * while the broker lock on it is held ({@link QueueLocks}).
 *
 * <p>The first failed message of a batch is retried in place after its redelivery wait (one second without a
 * policy), holding its queue back, together with the messages after it; the ones before it are consumed. After
 * {@code pauseQueueAfterFailures} failures in a row its queue is paused; after {@code maxReconsumeTimes} it is moved
 * to the dead-letter queue so that it cannot block the queue forever. After each batch the offset moves past what
 * was consumed, unless the queue was dropped meanwhile.
 */
final class OrderlyConsumeService implements ConsumeService {
    /** Pause before a queue whose lock is not held, or whose failed message could not be moved, is tried again. */
    static final Duration SUSPEND = Duration.ofSeconds(1);
    /** Longest a task keeps one queue before it lets other queues have the thread. */
    private static final Duration MAX_TASK_TIME = Duration.ofSeconds(60);

    private final PushConsumerConfig config;
    private final BatchDelivery delivery;
    private final OffsetStore offsets;
    /** Whether the queue's broker lock is held (always, for broadcasting, which never locks). */
    private final Predicate<ProcessQueue> locked;
    private final Later later;
    private final Clock clock;
    private final QueuePauses pauses;
    private final InPlaceRetries retries;
    private final ExecutorService pool;
    /** The message at the head of a queue that failed, and how often in a row, by queue. */
    private final Map<ProcessQueue, Failing> failures = new ConcurrentHashMap<>();
    /** When a queue's short batch began to wait for more messages ({@link Clock#nanos()}), by queue. */
    private final Map<ProcessQueue, Long> waitingSince = new ConcurrentHashMap<>();

    private record Failing(long offset, int count) {
    }

    /**
     * @param sendBack moves a message that failed too often to the dead-letter queue
     * @param locked   whether a queue's broker lock is held, so its messages may be consumed
     * @param later    where a queue waits before it is tried again
     * @param clock    measures how long a task has kept its queue, and a short batch has waited
     * @param pauses   the queues paused on a poison message
     * @param threads  makes the consume threads
     */
    OrderlyConsumeService(PushConsumerConfig config, BatchDelivery delivery, OffsetStore offsets, SendBack sendBack,
                          Predicate<ProcessQueue> locked, Later later, Clock clock, QueuePauses pauses,
                          ThreadFactory threads) {
        this.config = config;
        this.delivery = delivery;
        this.offsets = offsets;
        this.locked = locked;
        this.later = later;
        this.clock = clock;
        this.pauses = pauses;
        this.retries = new InPlaceRetries(config, sendBack);
        this.pool = Executors.newFixedThreadPool(config.consumeThreads(), threads);
    }

    @Override
    public void submit(ProcessQueue queue, List<ReceivedMessage> messages) {
        schedule(queue);
    }

    private void schedule(ProcessQueue queue) {
        if (queue.isDropped() || queue.isPaused() || !queue.startConsuming()) {
            return;
        }
        try {
            pool.execute(() -> run(queue));
        } catch (RejectedExecutionException e) {
            queue.stopConsuming();
        }
    }

    /**
     * What a consume task leaves its queue to: nothing (empty), another task at once (AGAIN), another after a
     * wait (LATER), or the timer of a short batch already set (IDLE).
     */
    private record Next(Kind kind, Duration delay) {
        static final Next DONE = new Next(Kind.DONE, Duration.ZERO);
        static final Next AGAIN = new Next(Kind.AGAIN, Duration.ZERO);
        static final Next IDLE = new Next(Kind.IDLE, Duration.ZERO);

        static Next later(Duration delay) {
            return new Next(Kind.LATER, delay);
        }
    }

    private enum Kind { DONE, LATER, AGAIN, IDLE }

    /** One consume task: batches of one queue, in order, until it is empty, blocked, or the task ran long. */
    private void run(ProcessQueue queue) {
        Next next = Next.DONE;
        try {
            next = consumeQueue(queue);
        } finally {
            queue.stopConsuming();
            if (queue.isDropped()) {
                // the queue went to another consumer: what was kept about it here goes too
                failures.remove(queue);
                waitingSince.remove(queue);
            }
            switch (next.kind()) {
                case LATER -> later.after(next.delay(), () -> schedule(queue));
                case AGAIN -> schedule(queue);
                case DONE -> {
                    if (!queue.isDropped() && !queue.isPaused() && !queue.head(1).isEmpty()) {
                        schedule(queue); // messages arrived while the task was finishing
                    }
                }
                default -> {
                }
            }
        }
    }

    private Next consumeQueue(ProcessQueue queue) {
        long deadline = clock.nanos() + MAX_TASK_TIME.toNanos();
        while (!queue.isDropped() && !queue.isPaused()) {
            if (!locked.test(queue)) {
                return Next.later(SUSPEND);
            }
            List<ReceivedMessage> head = queue.head(config.consumeBatchSize());
            if (head.isEmpty()) {
                waitingSince.remove(queue);
                return Next.DONE;
            }
            if (head.size() < config.consumeBatchSize() && !config.consumeBatchWait().isZero()) {
                long now = clock.nanos();
                Long since = waitingSince.putIfAbsent(queue, now);
                long left = config.consumeBatchWait().toNanos() - (since == null ? 0 : now - since);
                if (left > 0) {
                    // the first look sets the timer; later looks leave it to run
                    return since == null ? Next.later(Duration.ofNanos(left)) : Next.IDLE;
                }
            }
            waitingSince.remove(queue);
            Duration retry = consumeBatch(queue, head);
            if (retry != null) {
                return retry.isZero() ? Next.DONE : Next.later(retry);
            }
            if (clock.nanos() - deadline > 0) {
                return Next.AGAIN;
            }
        }
        return Next.DONE;
    }

    /**
     * Hands {@code head} to the listener and commits what it consumed.
     *
     * @return {@code null} when the queue may move on; else how long until its next try (zero: it was paused)
     */
    private Duration consumeBatch(ProcessQueue queue, List<ReceivedMessage> head) {
        queue.consumeLock().lock();
        try {
            if (queue.isDropped()) {
                return Duration.ZERO;
            }
            BatchDelivery.Outcome outcome = delivery.deliver(head);
            int firstFailed = head.size() - outcome.failed().size(); // an orderly batch fails from one message on
            if (firstFailed > 0) {
                commit(queue, head.subList(0, firstFailed));
            }
            if (outcome.failed().isEmpty()) {
                failures.remove(queue);
                return null;
            }
            ReceivedMessage message = head.get(firstFailed);
            int count = failures.compute(queue, (q, previous) -> new Failing(message.queueOffset(),
                    previous != null && previous.offset() == message.queueOffset() ? previous.count() + 1 : 1))
                    .count();
            return switch (retries.after(count)) {
                case RETRY -> retries.wait(count);
                case PAUSE -> {
                    pauses.pause(queue, message, count, outcome.failure());
                    yield Duration.ZERO;
                }
                case DEAD_LETTER -> {
                    if (!retries.deadLettered(message, count)) {
                        yield SUSPEND;
                    }
                    failures.remove(queue);
                    commit(queue, List.of(message));
                    yield null;
                }
            };
        } finally {
            queue.consumeLock().unlock();
        }
    }

    private void commit(ProcessQueue queue, List<ReceivedMessage> consumed) {
        long offset = queue.consumed(consumed);
        if (!queue.isDropped()) {
            offsets.update(queue.queue(), offset, true);
        }
    }

    @Override
    public List<PausedQueue> paused() {
        return pauses.list();
    }

    @Override
    public boolean resume(ProcessQueue queue, boolean skip) {
        QueuePauses.Pause pause;
        queue.consumeLock().lock();
        try {
            pause = pauses.ending(queue, skip, retries).orElse(null);
            if (pause == null) {
                return false;
            }
            failures.remove(queue);
            pauses.take(queue);
            if (skip) {
                commit(queue, List.of(pause.message()));
            }
        } finally {
            queue.consumeLock().unlock();
        }
        pauses.resumed(queue.queue(), pause.message().msgId(), skip);
        schedule(queue); // a paused queue's message is still its head: delivered again unless skipped
        return true;
    }

    @Override
    public void shutdown(Duration timeout) {
        ConsumeService.shutdown(pool, timeout);
    }
}
