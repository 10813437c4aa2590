package dev.ferry.server.broker;

import dev.ferry.server.timer.TimerRouting;
import dev.ferry.store.MessageToStore;

/**
 * Where a committed message that asks to wait goes: the send path's delay and timer steps ({@link SendRoute#forWaits}),
 * for a message read from the half topic.
 */
final class WaitRouting {
    private final SendRoute waits;

    WaitRouting(ScheduleService schedule, TimerRouting timers) {
        this.waits = SendRoute.forWaits(schedule.levels(), timers);
    }

    TimerRouting.Decision route(MessageToStore message) {
        SendStep.Routed routed = waits.route(SendingMessage.of(message));
        if (routed.refused()) {
            return new TimerRouting.Decision(null, routed.refusalCode(), routed.remark());
        }
        return TimerRouting.Decision.asIs(routed.message().toStore());
    }
}
