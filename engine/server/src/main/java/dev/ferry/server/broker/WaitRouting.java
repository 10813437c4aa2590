package dev.ferry.server.broker;

import dev.ferry.server.timer.TimerRouting;
import dev.ferry.store.MessageToStore;

/**
 * Where a message that asks to wait goes, for a send and for a committed transaction alike: a delay level to the
 * schedule topic (its timer properties dropped, as Apache's broker drops them), else a time to the timer topic.
 */
final class WaitRouting {
    private final ScheduleService schedule;
    private final TimerRouting timers;

    WaitRouting(ScheduleService schedule, TimerRouting timers) {
        this.schedule = schedule;
        this.timers = timers;
    }

    TimerRouting.Decision route(MessageToStore message) {
        int level = schedule.requestedLevel(message.properties());
        if (level > 0) {
            return TimerRouting.Decision.asIs(schedule.delay(TimerRouting.withoutTimer(message), level));
        }
        return timers.route(message);
    }
}
