package dev.ferry.server.broker;

import dev.ferry.format.DelayLevels;
import dev.ferry.format.MessageProperties;
import dev.ferry.format.SystemTopics;
import dev.ferry.server.timer.TimerRouting;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A message with a delay level ({@code DELAY}) is parked in the schedule topic's queue of that level, with its real
 * topic and queue, until {@link ScheduleService} moves it back; the level wins over timer properties, which are
 * dropped as Apache's broker drops them. The message goes no further along the route.
 */
final class DelayLevelStep implements SendStep {
    private final DelayLevels levels;

    DelayLevelStep(DelayLevels levels) {
        this.levels = levels;
    }

    @Override
    public Routed apply(SendingMessage message) {
        int level = levels.requested(message.property(MessageProperties.DELAY));
        if (level == 0) {
            return Routed.next(message);
        }
        SendingMessage untimed = message;
        if (TimerRouting.ASKING_FOR_TIME.stream().anyMatch(message::has)) {
            Map<String, String> dropped = new LinkedHashMap<>();
            TimerRouting.ASKING_FOR_TIME.forEach(name -> dropped.put(name, null));
            untimed = message.withProperties(dropped);
        }
        return Routed.last(park(untimed, level));
    }

    /** {@code message} bound for the schedule topic's queue of {@code level} (already within the levels). */
    static SendingMessage park(SendingMessage message, int level) {
        Map<String, String> parked = new LinkedHashMap<>();
        parked.put(MessageProperties.REAL_TOPIC, message.topic());
        parked.put(MessageProperties.REAL_QUEUE_ID, Integer.toString(message.queueId()));
        parked.put(MessageProperties.DELAY, Integer.toString(level));
        return message.withProperties(parked).to(SystemTopics.SCHEDULE_TOPIC, level - 1);
    }
}
