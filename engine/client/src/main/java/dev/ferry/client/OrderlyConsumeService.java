package dev.ferry.client;

import dev.ferry.api.MessageListener;
import dev.ferry.api.MessageModel;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.format.Clock;
import dev.ferry.spi.OffsetStore;
import java.lang.System.Logger.Level;
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
 * Orderly consumption for a push consumer: each queue's messages reach the listener one at a time in queue
 * order, one consume task per queue (several queues in parallel on {@code consumeThreads}). A clustering
 * consumer reads a queue only while the broker lock on it is held ({@link QueueLocks}). A failing message is
 * retried in place after {@link #SUSPEND} (holding its queue back); after {@code maxReconsumeTimes} failed
 * attempts it is moved to the dead-letter queue so that it cannot block the queue forever. After each
 * message the offset moves past it, unless the queue was dropped meanwhile.
 */
final class OrderlyConsumeService implements ConsumeService {
    private static final System.Logger LOG = System.getLogger(OrderlyConsumeService.class.getName());
    /** Pause before a failed message, or a queue whose lock is not held, is tried again. */
    static final Duration SUSPEND = Duration.ofSeconds(1);
    /** Longest a task keeps one queue before it lets other queues have the thread. */
    private static final Duration MAX_TASK_TIME = Duration.ofSeconds(60);

    private final PushConsumerConfig config;
    private final MessageListener listener;
    private final OffsetStore offsets;
    private final SendBack sendBack;
    /** Whether the queue's broker lock is held (always, for broadcasting, which never locks). */
    private final Predicate<ProcessQueue> locked;
    private final Later later;
    private final Clock clock;
    private final ExecutorService pool;
    /** Failed attempts of the message at the head of a queue, by queue. */
    private final Map<ProcessQueue, Integer> failures = new ConcurrentHashMap<>();

    /**
     * @param sendBack moves a message that failed too often to the dead-letter queue
     * @param locked   whether a queue's broker lock is held, so its messages may be consumed
     * @param later    where a queue waits before it is tried again
     * @param clock    measures how long a task has kept its queue
     * @param threads  makes the consume threads
     */
    OrderlyConsumeService(PushConsumerConfig config, MessageListener listener, OffsetStore offsets, SendBack sendBack,
                          Predicate<ProcessQueue> locked, Later later, Clock clock, ThreadFactory threads) {
        this.config = config;
        this.listener = listener;
        this.offsets = offsets;
        this.sendBack = sendBack;
        this.locked = locked;
        this.later = later;
        this.clock = clock;
        this.pool = Executors.newFixedThreadPool(config.consumeThreads(), threads);
    }

    @Override
    public void submit(ProcessQueue queue, List<ReceivedMessage> messages) {
        schedule(queue);
    }

    private void schedule(ProcessQueue queue) {
        if (queue.isDropped() || !queue.startConsuming()) {
            return;
        }
        try {
            pool.execute(() -> run(queue));
        } catch (RejectedExecutionException e) {
            queue.stopConsuming();
        }
    }

    private void later(ProcessQueue queue) {
        later.after(SUSPEND, () -> schedule(queue));
    }

    /** What a consume task leaves its queue to. */
    private enum Next { DONE, LATER, AGAIN }

    /** One consume task: messages of one queue, in order, until it is empty, blocked, or the task ran long. */
    private void run(ProcessQueue queue) {
        Next next = Next.DONE;
        try {
            next = consumeQueue(queue);
        } finally {
            queue.stopConsuming();
            switch (next) {
                case LATER -> later(queue);
                case AGAIN -> schedule(queue);
                default -> {
                    if (!queue.isDropped() && !queue.head(1).isEmpty()) {
                        schedule(queue); // messages arrived while the task was finishing
                    }
                }
            }
        }
    }

    private Next consumeQueue(ProcessQueue queue) {
        long deadline = clock.nanos() + MAX_TASK_TIME.toNanos();
        while (!queue.isDropped()) {
            if (!locked.test(queue)) {
                return Next.LATER;
            }
            List<ReceivedMessage> head = queue.head(1);
            if (head.isEmpty()) {
                return Next.DONE;
            }
            if (!consumeOne(queue, head.get(0))) {
                return Next.LATER;
            }
            if (clock.nanos() - deadline > 0) {
                return Next.AGAIN;
            }
        }
        return Next.DONE;
    }

    /** @return whether the queue may move on past {@code message} */
    private boolean consumeOne(ProcessQueue queue, ReceivedMessage message) {
        queue.consumeLock().lock();
        try {
            if (queue.isDropped()) {
                return false;
            }
            try {
                listener.onMessage(message);
            } catch (Exception | Error e) {
                if (!giveUp(queue, message, e)) {
                    return false;
                }
            }
            failures.remove(queue);
            long offset = queue.consumed(List.of(message));
            if (!queue.isDropped()) {
                offsets.update(queue.queue(), offset, true);
            }
            return true;
        } finally {
            queue.consumeLock().unlock();
        }
    }

    /** Counts a failure; true when the message is moved to the dead-letter queue and the queue moves on. */
    private boolean giveUp(ProcessQueue queue, ReceivedMessage message, Throwable failure) {
        int attempts = failures.merge(queue, 1, Integer::sum);
        if (attempts <= config.maxReconsumeTimes()) {
            LOG.log(Level.DEBUG, "listener failed on " + message.msgId() + " (attempt " + attempts
                    + "); retrying in place: " + failure);
            return false;
        }
        if (config.messageModel() == MessageModel.BROADCASTING) {
            LOG.log(Level.WARNING, "broadcast message " + message.msgId() + " failed " + attempts
                    + " times and is skipped");
            return true;
        }
        try {
            sendBack.sendBack(message, config.maxReconsumeTimes(), -1);
            LOG.log(Level.WARNING, "message " + message.msgId() + " failed " + attempts
                    + " times and was moved to the dead-letter queue of " + config.group());
            return true;
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "moving " + message.msgId() + " to the dead-letter queue failed; retrying it: "
                    + e.getMessage());
            return false;
        }
    }

    @Override
    public void shutdown(Duration timeout) {
        ConsumeService.shutdown(pool, timeout);
    }
}
