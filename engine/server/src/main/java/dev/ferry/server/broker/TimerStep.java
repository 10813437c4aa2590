package dev.ferry.server.broker;

import dev.ferry.format.SystemTopics;
import dev.ferry.server.timer.TimerRouting;

/**
 * A message that asks for a time ({@code TIMER_DELIVER_MS}, {@code TIMER_DELAY_SEC}, {@code TIMER_DELAY_MS}) is held in
 * the timer topic, in the slot it fires in, by {@link TimerRouting}'s rules; one due already goes on as it is; a time
 * the timer cannot take refuses the send.
 */
final class TimerStep implements SendStep {
    private final TimerRouting timers;

    TimerStep(TimerRouting timers) {
        this.timers = timers;
    }

    @Override
    public Routed apply(SendingMessage message) {
        if (SystemTopics.TIMER_TOPIC.equals(message.topic())) {
            return Routed.next(message);
        }
        TimerRouting.Verdict verdict = timers.judge(message.sysFlag(), message.properties());
        if (verdict.refused()) {
            return Routed.refused(verdict.refusalCode(), verdict.remark());
        }
        if (!verdict.held()) {
            return Routed.next(message);
        }
        return Routed.next(message.withProperties(verdict.heldProperties(message.topic(), message.queueId()))
                .to(SystemTopics.TIMER_TOPIC, 0));
    }
}
