package dev.ferry.client;

import dev.ferry.api.MessageModel;
import dev.ferry.api.ReceivedMessage;
import java.lang.System.Logger.Level;
import java.time.Duration;

/**
 * What happens to a message retried in place (orderly, or concurrent with poison pausing) after its
 * {@code failures}-th failed delivery in a row: another try after a wait, its queue paused, or the dead-letter
 * queue. Pausing comes first when both limits are reached: an operator then decides.
 */
final class InPlaceRetries {
    private static final System.Logger LOG = System.getLogger(InPlaceRetries.class.getName());
    /** The wait between retries when no redelivery policy is set (RocketMQ's orderly suspend time). */
    static final Duration DEFAULT_WAIT = Duration.ofSeconds(1);

    enum Step { RETRY, PAUSE, DEAD_LETTER }

    private final PushConsumerConfig config;
    private final SendBack sendBack;

    /** @param sendBack moves messages to the dead-letter queue */
    InPlaceRetries(PushConsumerConfig config, SendBack sendBack) {
        this.config = config;
        this.sendBack = sendBack;
    }

    Step after(int failures) {
        if (config.pauseQueueAfterFailures() > 0 && failures >= config.pauseQueueAfterFailures()) {
            return Step.PAUSE;
        }
        return failures > config.maxReconsumeTimes() ? Step.DEAD_LETTER : Step.RETRY;
    }

    /** How long to wait before the next try after {@code failures} failures. */
    Duration wait(int failures) {
        return config.redelivery().map(policy -> policy.delay(failures)).orElse(DEFAULT_WAIT);
    }

    /**
     * Moves a message that failed {@code failures} times to the dead-letter queue (a broadcasting consumer, which
     * has none, drops it).
     *
     * @return false when the broker did not take it
     */
    boolean deadLettered(ReceivedMessage message, int failures) {
        if (config.messageModel() == MessageModel.BROADCASTING) {
            LOG.log(Level.WARNING, "broadcast message " + message.msgId() + " failed " + failures
                    + " times and is skipped");
            return true;
        }
        try {
            sendBack.sendBack(message, config.maxReconsumeTimes(), -1);
            LOG.log(Level.WARNING, "message " + message.msgId() + " failed " + failures
                    + " times and was moved to the dead-letter queue of " + config.group());
            return true;
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "moving " + message.msgId() + " to the dead-letter queue failed; retrying it: "
                    + e.getMessage());
            return false;
        }
    }
}
