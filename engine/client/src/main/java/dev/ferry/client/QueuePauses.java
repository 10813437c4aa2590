package dev.ferry.client;

import dev.ferry.api.MessageQueue;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.format.Clock;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The queues a consumer paused on a poison message: which message, how often it failed, why. Pausing marks the
 * {@link ProcessQueue}: its consume service holds its messages, which are still pulled up to the
 * queue's thresholds, so that an operator sees what waits; {@link #take} ends a pause. A
 * queue the consumer loses to a rebalance loses its pause with it.
 */
final class QueuePauses {
    private static final System.Logger LOG = System.getLogger(QueuePauses.class.getName());

    /** A pause: what management sees, and the message to deliver again or skip. */
    record Pause(PausedQueue view, ReceivedMessage message) {
    }

    private final String group;
    private final ConsumerEvents events;
    private final Clock clock;
    private final Map<ProcessQueue, Pause> paused = new ConcurrentHashMap<>();

    QueuePauses(String group, ConsumerEvents events, Clock clock) {
        this.group = group;
        this.events = events;
        this.clock = clock;
    }

    void pause(ProcessQueue queue, ReceivedMessage message, int failures, Throwable failure) {
        String lastFailure = describe(failure);
        PausedQueue view = new PausedQueue(queue.queue(), message.msgId(), message.queueOffset(), failures,
                lastFailure, clock.instant());
        queue.pause(true);
        paused.put(queue, new Pause(view, message));
        LOG.log(Level.WARNING, "consumer group {0} paused queue {1}: message {2} at offset {3} failed {4} times in a"
                + " row, last with {5}; the queue waits until it is resumed or the message skipped", group,
                queue.queue(), message.msgId(), String.valueOf(message.queueOffset()), String.valueOf(failures),
                lastFailure);
        try {
            events.queuePaused(view, failure);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "the consumer's owner failed on the pause of " + queue.queue(), e);
        }
    }

    /**
     * A failure and its causes, outermost first: a container may wrap the bean's exception, and the cause is what
     * an operator needs.
     */
    static String describe(Throwable failure) {
        StringBuilder text = new StringBuilder(String.valueOf(failure));
        Throwable cause = failure == null ? null : failure.getCause();
        for (int depth = 0; cause != null && cause != failure && depth < MAX_CAUSES; depth++) {
            text.append("; caused by ").append(cause);
            cause = cause.getCause();
        }
        return text.toString();
    }

    /** How many causes {@link #describe} names: enough for a container's wrapping, bounded for a log line. */
    private static final int MAX_CAUSES = 4;

    /** Ends the pause of {@code queue}, if it has one. */
    Optional<Pause> take(ProcessQueue queue) {
        Pause pause = paused.remove(queue);
        queue.pause(false);
        return Optional.ofNullable(pause);
    }

    /**
     * The pause of {@code queue} about to end; with {@code skip} its poison message is moved to the dead-letter
     * queue first. Empty when the queue is not paused.
     *
     * @throws IllegalStateException when the skipped message could not be moved: the queue stays paused
     */
    Optional<Pause> ending(ProcessQueue queue, boolean skip, InPlaceRetries retries) {
        Pause pause = paused.get(queue);
        if (pause != null && skip && !retries.deadLettered(pause.message(), pause.view().failures())) {
            throw new IllegalStateException("message " + pause.message().msgId() + " could not be moved to the "
                    + "dead-letter queue; queue " + queue.queue() + " stays paused");
        }
        return Optional.ofNullable(pause);
    }

    Optional<Pause> of(ProcessQueue queue) {
        return Optional.ofNullable(paused.get(queue));
    }

    void resumed(MessageQueue queue, String msgId, boolean skipped) {
        LOG.log(Level.INFO, "consumer group {0} resumed queue {1}: message {2} {3}", group, queue, msgId,
                skipped ? "skipped to the dead-letter queue" : "is delivered again");
        try {
            events.queueResumed(queue, msgId, skipped);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "the consumer's owner failed on the resumption of " + queue, e);
        }
    }

    /** The pauses of queues the consumer still holds, by queue. */
    List<PausedQueue> list() {
        paused.keySet().removeIf(ProcessQueue::isDropped);
        List<PausedQueue> views = new ArrayList<>();
        paused.values().forEach(pause -> views.add(pause.view()));
        views.sort((a, b) -> a.queue().compareTo(b.queue()));
        return views;
    }
}
