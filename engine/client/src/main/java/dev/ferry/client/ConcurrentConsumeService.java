package dev.ferry.client;

import dev.ferry.api.MessageListener;
import dev.ferry.api.MessageModel;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.spi.OffsetStore;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;

/**
 * Concurrent consumption for a push consumer: pulled messages are cut into batches of
 * {@code consumeBatchSize} and handed to the listener on a pool of {@code consumeThreads}. A message whose
 * listener call throws is sent back to the broker for redelivery (clustering) or dropped with a warning
 * (broadcasting); if the send-back fails it is consumed again locally after a pause. After each batch the
 * queue's offset moves to the lowest offset still in flight, unless the queue was dropped meanwhile.
 */
final class ConcurrentConsumeService implements ConsumeService {
    private static final System.Logger LOG = System.getLogger(ConcurrentConsumeService.class.getName());
    private static final Duration LOCAL_RETRY_PAUSE = Duration.ofSeconds(5);

    private final PushConsumerConfig config;
    private final MessageListener listener;
    private final OffsetStore offsets;
    private final SendBack sendBack;
    private final Later later;
    private final ExecutorService pool;
    private volatile boolean stopping;

    /**
     * @param sendBack hands failed messages back to their broker
     * @param later    where a message the broker did not take back is consumed again, after a pause
     * @param threads  makes the consume threads
     */
    ConcurrentConsumeService(PushConsumerConfig config, MessageListener listener, OffsetStore offsets,
                             SendBack sendBack, Later later, ThreadFactory threads) {
        this.config = config;
        this.listener = listener;
        this.offsets = offsets;
        this.sendBack = sendBack;
        this.later = later;
        this.pool = Executors.newFixedThreadPool(config.consumeThreads(), threads);
    }

    @Override
    public void submit(ProcessQueue queue, List<ReceivedMessage> messages) {
        for (int i = 0; i < messages.size(); i += config.consumeBatchSize()) {
            List<ReceivedMessage> batch = List.copyOf(messages.subList(i,
                    Math.min(messages.size(), i + config.consumeBatchSize())));
            try {
                pool.execute(() -> consume(queue, batch));
            } catch (RejectedExecutionException e) {
                return; // shutting down: the messages are pulled again from the committed offset
            }
        }
    }

    private void consume(ProcessQueue queue, List<ReceivedMessage> batch) {
        if (queue.isDropped()) {
            return;
        }
        List<ReceivedMessage> failed = new ArrayList<>();
        for (ReceivedMessage message : batch) {
            try {
                listener.onMessage(message);
            } catch (Exception e) {
                LOG.log(Level.DEBUG, "listener failed on " + message.msgId() + "; will reconsume: " + e);
                failed.add(message);
            } catch (Throwable e) {
                LOG.log(Level.WARNING, "listener failed on " + message.msgId() + " with an error; will reconsume", e);
                failed.add(message);
            }
        }
        // While the consumer closes, a failure is no consumption attempt (a listener may fail because its
        // container is going away): such messages stay uncommitted, their retry count untouched, and whoever
        // takes the queue next reads them again.
        boolean closing = stopping;
        List<ReceivedMessage> unfinished = closing ? failed : handleFailures(failed); // stay in flight here
        List<ReceivedMessage> done = new ArrayList<>(batch);
        done.removeAll(unfinished);
        long offset = queue.consumed(done);
        if (!queue.isDropped()) {
            offsets.update(queue.queue(), offset, true);
        }
        if (!closing && !unfinished.isEmpty()) {
            // when the client is closing this never runs: the messages stay uncommitted for the next consumer
            later.after(LOCAL_RETRY_PAUSE, () -> submit(queue, unfinished));
        }
    }

    /** @return the messages that must be consumed again here */
    private List<ReceivedMessage> handleFailures(List<ReceivedMessage> failed) {
        if (failed.isEmpty()) {
            return List.of();
        }
        if (config.messageModel() == MessageModel.BROADCASTING) {
            failed.forEach(m -> LOG.log(Level.WARNING, "broadcast message " + m.msgId()
                    + " failed and is dropped (broadcasting has no redelivery)"));
            return List.of();
        }
        List<ReceivedMessage> local = new ArrayList<>();
        for (ReceivedMessage message : failed) {
            try {
                sendBack.sendBack(message, config.maxReconsumeTimes(), 0);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "send-back of " + message.msgId() + " failed; consuming it again here: "
                        + e.getMessage());
                local.add(message);
            }
        }
        return local;
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
