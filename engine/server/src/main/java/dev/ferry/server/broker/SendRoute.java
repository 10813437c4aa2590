package dev.ferry.server.broker;

import dev.ferry.format.DelayLevels;
import dev.ferry.server.timer.TimerRouting;
import java.util.List;

/**
 * Where a sent message really goes: its steps, applied in a fixed order to the message whose properties were read
 * once ({@link SendingMessage}). A step may send the message on, stop it at its final destination, or refuse it.
 * {@link #forSends} is the one place that order is written down.
 */
final class SendRoute {
    private final List<SendStep> steps;

    SendRoute(List<SendStep> steps) {
        this.steps = List.copyOf(steps);
    }

    /**
     * A send's route: a retry past its group's limit to the dead-letter topic; a prepared message to the half topic;
     * a delay level to the schedule topic; a time to the timer topic. (A request-reply step belongs at the end.)
     *
     * @param transactionTopics creates the half and op topics when they are missing
     */
    static SendRoute forSends(RetryRouting retries, TopicCounters counters, DelayLevels levels, TimerRouting timers,
                              Runnable transactionTopics) {
        SendRoute waits = forWaits(levels, timers);
        return new SendRoute(List.of(
                new DeadLetterStep(retries, counters),
                new TransactionHalfStep(waits, transactionTopics),
                new DelayLevelStep(levels),
                new TimerStep(timers)));
    }

    /** The route of a message that may ask to wait, for a send and for a committed transaction alike. */
    static SendRoute forWaits(DelayLevels levels, TimerRouting timers) {
        return new SendRoute(List.of(new DelayLevelStep(levels), new TimerStep(timers)));
    }

    /** The steps in the order they apply. */
    List<SendStep> steps() {
        return steps;
    }

    /** Where {@code message} goes: the message at its destination, or the refusal of the step that refused it. */
    SendStep.Routed route(SendingMessage message) {
        SendingMessage current = message;
        for (SendStep step : steps) {
            SendStep.Routed routed = step.apply(current);
            if (routed.last()) {
                return routed;
            }
            current = routed.message();
        }
        return SendStep.Routed.last(current);
    }
}
