package dev.ferry.server.timer;

import dev.ferry.format.Clock;
import dev.ferry.format.MessageProperties;
import dev.ferry.format.SysFlags;
import dev.ferry.format.SystemTopics;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.store.MessageToStore;
import java.util.LinkedHashMap;
import java.util.List;
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
    /** The properties that ask for a time; a message with a delay level has them dropped, as Apache's broker does. */
    public static final List<String> ASKING_FOR_TIME = List.of(MessageProperties.TIMER_DELIVER_MS,
            MessageProperties.TIMER_DELAY_SEC, MessageProperties.TIMER_DELAY_MS);

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
        return ASKING_FOR_TIME.stream().anyMatch(name -> MessageProperties.has(properties, name));
    }

    /** The message as it goes on from a send or a commit with no delay level. */
    public Decision route(MessageToStore message) {
        if (!mayBeTimer(message.properties()) || SystemTopics.TIMER_TOPIC.equals(message.topic())) {
            return Decision.asIs(message);
        }
        Map<String, String> properties = MessageProperties.parse(message.properties());
        Verdict verdict = judge(message.sysFlag(), properties);
        if (verdict.refused()) {
            return new Decision(null, verdict.refusalCode(), verdict.remark());
        }
        if (!verdict.held()) {
            return Decision.asIs(message);
        }
        properties.putAll(verdict.heldProperties(message.topic(), message.queueId()));
        return Decision.asIs(copy(message, SystemTopics.TIMER_TOPIC, 0, MessageProperties.format(properties)));
    }

    /**
     * What becomes of a message with these sysFlag and properties, bound for a topic other than the timer topic: held
     * in a slot, sent as is, or refused.
     */
    public Verdict judge(int sysFlag, Map<String, String> properties) {
        int transaction = SysFlags.transactionType(sysFlag);
        if (transaction != SysFlags.TRANSACTION_NOT_TYPE && transaction != SysFlags.TRANSACTION_COMMIT_TYPE) {
            return Verdict.AS_IS;
        }
        if (properties.containsKey(MessageProperties.TIMER_OUT_MS)) {
            return Verdict.AS_IS;
        }
        String delaySec = properties.get(MessageProperties.TIMER_DELAY_SEC);
        String delayMs = properties.get(MessageProperties.TIMER_DELAY_MS);
        String deliverAt = properties.get(MessageProperties.TIMER_DELIVER_MS);
        if (delaySec == null && delayMs == null && deliverAt == null) {
            return Verdict.AS_IS;
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
            return properties.containsKey(MessageProperties.TIMER_DEL_UNIQKEY) ? illegal() : Verdict.AS_IS;
        }
        if (!settings.enabled()) {
            return Verdict.refused(ResponseCode.SYSTEM_ERROR,
                    "accurate timer message is not enabled, timerWheelEnable is false");
        }
        if (deliverMs - now > settings.maxDelaySec() * 1000L) {
            return illegal();
        }
        long slot = settings.slotOf(deliverMs);
        if (congested(slot)) {
            long limit = settings.congestNumEachSlot();
            return Verdict.refused(ResponseCode.SYSTEM_ERROR, String.format("timer message is under flow "
                    + "control, max num limit is %d or the current value is greater than %d and less than %d, "
                    + "trigger random flow control", limit * 2, limit, limit * 2));
        }
        return new Verdict(slot, 0, null);
    }

    /**
     * What {@link #judge} found.
     *
     * @param slot the slot the message is held for, or -1 when it is not held
     */
    public record Verdict(long slot, int refusalCode, String remark) {
        static final Verdict AS_IS = new Verdict(-1, 0, null);

        static Verdict refused(int code, String remark) {
            return new Verdict(-1, code, remark);
        }

        public boolean refused() {
            return remark != null;
        }

        public boolean held() {
            return slot >= 0 && !refused();
        }

        /** The properties a held message bound for {@code topic}:{@code queueId} gets: its slot and where it goes. */
        public Map<String, String> heldProperties(String topic, int queueId) {
            Map<String, String> properties = new LinkedHashMap<>();
            properties.put(MessageProperties.TIMER_OUT_MS, Long.toString(slot));
            properties.put(MessageProperties.REAL_TOPIC, topic);
            properties.put(MessageProperties.REAL_QUEUE_ID, Integer.toString(queueId));
            return properties;
        }
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

    private Verdict illegal() {
        return Verdict.refused(ResponseCode.MESSAGE_ILLEGAL, String.format("timer message illegal, the delay time "
                + "should not be bigger than the max delay %dms; or if set del msg, the delay time should be bigger "
                + "than the current time", settings.maxDelaySec() * 1000L));
    }

    private static MessageToStore copy(MessageToStore message, String topic, int queueId, String properties) {
        return new MessageToStore(topic, queueId, message.flag(), message.body(), properties, message.sysFlag(),
                message.bornTimestamp(), message.bornHost(), message.storeHost(), message.reconsumeTimes(),
                message.preparedTransactionOffset());
    }
}
