package dev.ferry.server.broker;

import dev.ferry.format.MessageProperties;
import dev.ferry.format.StoredMessageView;
import dev.ferry.format.SystemTopics;
import dev.ferry.store.AppendResult;
import dev.ferry.store.GetMessageResult;
import dev.ferry.store.GetMessageStatus;
import dev.ferry.store.MessageFilterPredicate;
import dev.ferry.store.MessageStore;
import dev.ferry.store.MessageToStore;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Delayed messages: a message with delay level {@code n} is stored in {@link SystemTopics#SCHEDULE_TOPIC}
 * queue {@code n-1} with its real topic and queue in properties; {@link #deliverDue()} moves
 * each one to its real queue once its level's delay has passed since it was stored.
 *
 * <p>A level's queue holds its messages in due order (same delay, stored in order), so each level
 * needs only the offset of its next message. Those offsets are persisted as
 * {@code delayOffset.json} ({@code {"offsetTable":{1:5}}}, RocketMQ's layout), so delays survive
 * a restart; a crash between a delivery and the next persist delivers that message again, never
 * loses it.
 *
 * <p>{@link #deliverDue()} runs on the broker's scheduler thread only; {@link #delay} is pure.
 */
final class ScheduleService {
    private static final System.Logger LOG = System.getLogger(ScheduleService.class.getName());
    private static final int BATCH = 32;
    private static final int BATCH_BYTES = 4 * 1024 * 1024;

    /** The persisted form: next offset by level. */
    record Stored(Map<Integer, Long> offsetTable) {
    }

    private final DelayLevels levels;
    private final MessageStore store;
    private final Clock clock;
    private final Supplier<InetSocketAddress> storeHost;
    private final JsonFile<Stored> file;
    private final Map<Integer, Long> nextOffsets = new ConcurrentHashMap<>();
    private final UnsavedChanges unsaved = new UnsavedChanges();

    ScheduleService(DelayLevels levels, MessageStore store, Path configDir, Clock clock,
                    Supplier<InetSocketAddress> storeHost) {
        this.levels = levels;
        this.store = store;
        this.clock = clock;
        this.storeHost = storeHost;
        this.file = new JsonFile<>(configDir.resolve("delayOffset.json"), Stored.class);
        file.read().ifPresent(stored -> {
            if (stored.offsetTable() != null) {
                nextOffsets.putAll(stored.offsetTable());
            }
        });
    }

    /** The level a send asks for with its {@code DELAY} property: 0 for none, else clamped. */
    int requestedLevel(String properties) {
        String value = MessageProperties.find(properties, MessageProperties.DELAY);
        if (value == null || value.isBlank()) {
            return 0;
        }
        try {
            int level = Integer.parseInt(value.trim());
            return level <= 0 ? 0 : levels.clamp(level);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** {@code message} parked in the schedule topic until {@code level}'s delay has passed. */
    MessageToStore delay(MessageToStore message, int level) {
        int clamped = levels.clamp(level);
        Map<String, String> properties = MessageProperties.parse(message.properties());
        properties.put(MessageProperties.REAL_TOPIC, message.topic());
        properties.put(MessageProperties.REAL_QUEUE_ID, Integer.toString(message.queueId()));
        properties.put(MessageProperties.DELAY, Integer.toString(clamped));
        return new MessageToStore(SystemTopics.SCHEDULE_TOPIC, clamped - 1, message.flag(), message.body(),
                MessageProperties.format(properties), message.sysFlag(), message.bornTimestamp(), message.bornHost(),
                message.storeHost(), message.reconsumeTimes(), message.preparedTransactionOffset());
    }

    /** Moves every message whose time has come to its real queue. */
    void deliverDue() {
        for (int level = 1; level <= levels.maxLevel(); level++) {
            deliverDue(level);
        }
    }

    private void deliverDue(int level) {
        int queueId = level - 1;
        long delayMillis = levels.delay(level).toMillis();
        long offset = nextOffsets.getOrDefault(level, 0L);
        while (true) {
            GetMessageResult result = store.getMessages(SystemTopics.SCHEDULE_TOPIC, queueId, offset, BATCH,
                    BATCH_BYTES, MessageFilterPredicate.ALL);
            if (result.status() == GetMessageStatus.OFFSET_TOO_SMALL) {
                offset = advance(level, result.minOffset());
                continue;
            }
            if (result.status() != GetMessageStatus.FOUND) {
                return;
            }
            for (StoredMessageView message : result.views()) {
                if (message.storeTimestamp() + delayMillis > clock.millis() || !deliver(message)) {
                    return;
                }
                offset = advance(level, message.queueOffset() + 1);
            }
        }
    }

    private long advance(int level, long next) {
        nextOffsets.put(level, next);
        unsaved.record();
        return next;
    }

    private boolean deliver(StoredMessageView message) {
        String topic = message.property(MessageProperties.REAL_TOPIC);
        String queueId = message.property(MessageProperties.REAL_QUEUE_ID);
        if (topic == null || queueId == null) {
            LOG.log(System.Logger.Level.WARNING, "dropping scheduled message without a real topic: {0}", message);
            return true;
        }
        // DELAY stays on the delivered message, as consumers of Apache's broker see it there.
        MessageToStore real = MessageRewrite.of(message)
                .property(MessageProperties.REAL_TOPIC, null).property(MessageProperties.REAL_QUEUE_ID, null)
                .to(topic, Integer.parseInt(queueId), storeHost.get());
        AppendResult result = store.append(real);
        if (!result.isStored()) {
            LOG.log(System.Logger.Level.WARNING, "cannot deliver a delayed message to {0} yet: {1} {2}", topic,
                    result.status(), result.detail());
        }
        return result.isStored();
    }

    /** Next offsets by level, for administration and tests. */
    Map<Integer, Long> progress() {
        return new TreeMap<>(nextOffsets);
    }

    void persistIfChanged() {
        unsaved.saveIfAny(this::persist);
    }

    void persist() {
        file.write(new Stored(new HashMap<>(nextOffsets)));
    }
}
