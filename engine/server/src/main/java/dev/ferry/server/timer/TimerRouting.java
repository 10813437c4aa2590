package dev.ferry.server.timer;

import dev.ferry.format.MessageProperties;
import dev.ferry.format.SysFlags;
import dev.ferry.format.SystemTopics;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.store.MessageToStore;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongToIntFunction;

/**
 * What a send does with a timer message ({@code TIMER_DELIVER_MS}, {@code TIMER_DELAY_SEC}, {@code TIMER_DELAY_MS}),
 * by Apache 5.3.3's rules: a time in the future parks the message in {@link SystemTopics#TIMER_TOPIC} with the slot it
 * fires in ({@code TIMER_OUT_MS}) and its real topic and queue; a time now or past delivers it at once; a delay level
 * wins over the timer properties, which are then dropped; a fired message ({@code TIMER_OUT_MS} set) is not held again.
 */
public final class TimerRouting {
    private final TimerSettings settings;
    private final Clock clock;
    /** How many timers wait in a slot now, for the congestion limit. */
    private final LongToIntFunction slotCount;

    public TimerRouting(TimerSettings settings, Clock clock, LongToIntFunction slotCount) {
        this.settings = settings;
        this.clock = clock;
        this.slotCount = slotCount;
    }

    /** What became of a message: held (then {@link #message} goes to the timer topic), sent as is, or refused. */
    public record Decision(MessageToStore message, int refusalCode, String remark) {
        public boolean refused() {
            return remark != null;
        }

        /** The message goes on as given. */
        public static Decision asIs(MessageToStore message) {
            return new Decision(message, 0, null);
        }
    }

    /** Whether the properties may name a timer at all: checked before anything is parsed. */
    public static boolean mayBeTimer(String properties) {
        return MessageProperties.mayNameTimer(properties);
    }

    /** Whether the properties ask for a time, as a batch's message must not. */
    public static boolean asksForTime(String properties) {
        if (!mayBeTimer(properties)) {
            return false;
        }
        return MessageProperties.has(properties, MessageProperties.TIMER_DELIVER_MS)
                || MessageProperties.has(properties, MessageProperties.TIMER_DELAY_SEC)
                || MessageProperties.has(properties, MessageProperties.TIMER_DELAY_MS);
    }

    /** Drops the timer properties, as Apache's broker does for a message with a delay level. */
    public static MessageToStore withoutTimer(MessageToStore message) {
        if (!mayBeTimer(message.properties())) {
            return message;
        }
        Map<String, String> properties = MessageProperties.parse(message.properties());
        boolean removed = properties.remove(MessageProperties.TIMER_DELIVER_MS) != null;
        removed |= properties.remove(MessageProperties.TIMER_DELAY_SEC) != null;
        removed |= properties.remove(MessageProperties.TIMER_DELAY_MS) != null;
        return removed ? copy(message, message.topic(), message.queueId(), MessageProperties.format(properties))
                : message;
    }

    /** The message as it goes on from a send or a commit with no delay level. */
    public Decision route(MessageToStore message) {
        if (!mayBeTimer(message.properties()) || SystemTopics.TIMER_TOPIC.equals(message.topic())) {
            return Decision.asIs(message);
        }
        int transaction = SysFlags.transactionType(message.sysFlag());
        if (transaction != SysFlags.TRANSACTION_NOT_TYPE && transaction != SysFlags.TRANSACTION_COMMIT_TYPE) {
            return Decision.asIs(message);
        }
        Map<String, String> properties = MessageProperties.parse(message.properties());
        if (properties.containsKey(MessageProperties.TIMER_OUT_MS)) {
            return Decision.asIs(message);
        }
        String delaySec = properties.get(MessageProperties.TIMER_DELAY_SEC);
        String delayMs = properties.get(MessageProperties.TIMER_DELAY_MS);
        String deliverAt = properties.get(MessageProperties.TIMER_DELIVER_MS);
        if (delaySec == null && delayMs == null && deliverAt == null) {
            return Decision.asIs(message);
        }
        long now = clock.millis();
        long deliverMs;
        try {
            // Apache's order: a delay in seconds, then in milliseconds, then a time
            deliverMs = delaySec != null ? Math.addExact(now, Math.multiplyExact(Long.parseLong(delaySec.trim()), 1000L))
                    : delayMs != null ? Math.addExact(now, Long.parseLong(delayMs.trim()))
                    : Long.parseLong(deliverAt.trim());
        } catch (NumberFormatException | ArithmeticException e) {
            return illegal();
        }
        if (deliverMs <= now) {
            // due already: delivered at once, but a cancel must name a pending timer
            return properties.containsKey(MessageProperties.TIMER_DEL_UNIQKEY) ? illegal() : Decision.asIs(message);
        }
        if (!settings.enabled()) {
            return new Decision(message, ResponseCode.SYSTEM_ERROR,
                    "accurate timer message is not enabled, timerWheelEnable is false");
        }
        if (deliverMs - now > settings.maxDelaySec() * 1000L) {
            return illegal();
        }
        long slot = settings.slotOf(deliverMs);
        if (congested(slot)) {
            long limit = settings.congestNumEachSlot();
            return new Decision(message, ResponseCode.SYSTEM_ERROR, String.format("timer message is under flow "
                    + "control, max num limit is %d or the current value is greater than %d and less than %d, "
                    + "trigger random flow control", limit * 2, limit, limit * 2));
        }
        properties.put(MessageProperties.TIMER_OUT_MS, Long.toString(slot));
        properties.put(MessageProperties.REAL_TOPIC, message.topic());
        properties.put(MessageProperties.REAL_QUEUE_ID, Integer.toString(message.queueId()));
        return Decision.asIs(copy(message, SystemTopics.TIMER_TOPIC, 0, MessageProperties.format(properties)));
    }

    /** Apache's rule: refused beyond twice the limit, at random in proportion between once and twice. */
    private boolean congested(long slot) {
        long waiting = slotCount.applyAsInt(slot);
        long limit = settings.congestNumEachSlot();
        if (waiting <= limit) {
            return false;
        }
        return waiting >= limit * 2 || ThreadLocalRandom.current().nextInt(1000) > 1000 * (waiting - limit) / (limit + 0.1);
    }

    private Decision illegal() {
        return new Decision(null, ResponseCode.MESSAGE_ILLEGAL, String.format("timer message illegal, the delay time "
                + "should not be bigger than the max delay %dms; or if set del msg, the delay time should be bigger "
                + "than the current time", settings.maxDelaySec() * 1000L));
    }

    private static MessageToStore copy(MessageToStore message, String topic, int queueId, String properties) {
        return new MessageToStore(topic, queueId, message.flag(), message.body(), properties, message.sysFlag(),
                message.bornTimestamp(), message.bornHost(), message.storeHost(), message.reconsumeTimes(),
                message.preparedTransactionOffset());
    }
}
