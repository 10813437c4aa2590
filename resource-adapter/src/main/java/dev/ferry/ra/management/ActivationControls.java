package dev.ferry.ra.management;

import dev.ferry.api.MessageQueue;
import dev.ferry.client.PushConsumer;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/** What an operator may do to a running activation, through its management bean. */
public interface ActivationControls {

    /** The consumer delivering to the bean now; empty while paused, or when the cluster refused its user. */
    Optional<PushConsumer> consumer();

    /** Whether an operator paused the bean's deliveries. */
    boolean paused();

    /**
     * Stops delivering to the bean as a graceful deactivation does: running deliveries finish, offsets are
     * persisted, queue locks released and the group left, so other members take its queues. No effect when paused.
     */
    void pause(String caller);

    /** Starts delivering again where the group's offsets stand. No effect unless paused. */
    void resume(String caller);

    /**
     * Ends the pause of a queue paused on a poison message: delivers the message again, or with {@code skip} moves
     * it to the dead-letter queue.
     *
     * @return whether that queue was paused
     */
    boolean resumeQueue(MessageQueue queue, boolean skip, String caller);

    /** Moves the group's offsets on its topic to {@code timestamp}; its consumers re-read from there. */
    Map<MessageQueue, Long> replay(Instant timestamp, String caller);

    /** Moves the group's offsets of the queues given; its consumers re-read from there. */
    Map<MessageQueue, Long> replay(Map<MessageQueue, Long> offsets, String caller);
}
