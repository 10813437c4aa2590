package dev.ferry.server.broker;

import dev.ferry.format.Clock;
import dev.ferry.format.DelayLevels;
import dev.ferry.format.LogPace;
import dev.ferry.format.MessageProperties;
import dev.ferry.format.StoredMessageView;
import dev.ferry.format.SystemTopics;
import dev.ferry.server.files.JsonFile;
import dev.ferry.store.AppendResult;
import dev.ferry.store.GetMessageResult;
import dev.ferry.store.GetMessageStatus;
import dev.ferry.store.MessageFilterPredicate;
import dev.ferry.store.MessageStore;
import dev.ferry.store.MessageToStore;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
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
 * <p>{@link #deliverDue()} runs on the broker's scheduler thread only and never waits for the disk: it appends each
 * due message without waiting for its flush and reads on from a cursor, while a level's persisted offset moves only
 * once the delivered copy is durable (under sync flush, from the store's flush thread). {@link #delay} is pure.
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
    /** Paces the warning of deliveries the store refused. */
    private final LogPace refusals = new LogPace(Duration.ofSeconds(10));
    private final Supplier<InetSocketAddress> storeHost;
    private final JsonFile<Stored> file;
    /** Next offset by level whose delivery is durable: what is persisted. */
    private final Map<Integer, Long> nextOffsets = new ConcurrentHashMap<>();
    /** Next offset by level to read: ahead of {@link #nextOffsets} by the deliveries not yet durable. */
    private final Map<Integer, Long> cursors = new ConcurrentHashMap<>();
    /** The last delivery's durability by level, so that a skipped message advances after the deliveries before it. */
    private final Map<Integer, CompletableFuture<?>> lastDelivery = new ConcurrentHashMap<>();
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
        return levels.requested(MessageProperties.find(properties, MessageProperties.DELAY));
    }

    /** {@code message} parked in the schedule topic until {@code level}'s delay has passed. */
    MessageToStore delay(MessageToStore message, int level) {
        return DelayLevelStep.park(SendingMessage.of(message), levels.clamp(level)).toStore();
    }

    DelayLevels levels() {
        return levels;
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
        long offset = cursors.computeIfAbsent(level, l -> nextOffsets.getOrDefault(l, 0L));
        while (true) {
            GetMessageResult result = store.getMessages(SystemTopics.SCHEDULE_TOPIC, queueId, offset, BATCH,
                    BATCH_BYTES, MessageFilterPredicate.ALL);
            if (result.status() == GetMessageStatus.OFFSET_TOO_SMALL) {
                offset = result.minOffset();
                cursors.put(level, offset);
                advanceAfterEarlierDeliveries(level, offset);
                continue;
            }
            if (result.status() != GetMessageStatus.FOUND) {
                return;
            }
            for (StoredMessageView message : result.views()) {
                if (message.storeTimestamp() + delayMillis > clock.millis()) {
                    return;
                }
                long next = message.queueOffset() + 1;
                Optional<CompletableFuture<AppendResult>> delivery = deliver(message);
                if (delivery.isEmpty()) {
                    advanceAfterEarlierDeliveries(level, next);
                } else if (delivery.get().isDone() && !delivery.get().join().isStored()) {
                    return; // refused at once (disk full, store closing): tried again next round
                } else {
                    long at = message.queueOffset();
                    lastDelivery.put(level, delivery.get().whenComplete((appended, failure) -> {
                        if (failure == null && appended.isStored()) {
                            advance(level, next);
                        } else {
                            cursors.merge(level, at, Math::min); // read it again next round
                        }
                    }));
                }
                offset = next;
                cursors.put(level, offset);
            }
        }
    }

    /** Durable progress moves to {@code next} once what was delivered before on this level is durable too. */
    private void advanceAfterEarlierDeliveries(int level, long next) {
        CompletableFuture<?> before = lastDelivery.get(level);
        if (before == null || before.isDone()) {
            advance(level, next);
        } else {
            lastDelivery.put(level, before.whenComplete((done, failure) -> advance(level, next)));
        }
    }

    private void advance(int level, long next) {
        if (nextOffsets.merge(level, next, Math::max) == next) {
            unsaved.record();
        }
    }

    /**
     * Appends the message to its real queue without waiting for the flush; empty when it names no real queue and is
     * dropped.
     */
    private Optional<CompletableFuture<AppendResult>> deliver(StoredMessageView message) {
        String topic = message.property(MessageProperties.REAL_TOPIC);
        int queueId = realQueueId(message.property(MessageProperties.REAL_QUEUE_ID));
        if (topic == null || queueId < 0) {
            LOG.log(System.Logger.Level.WARNING, "dropping scheduled message without a real topic and queue: {0}",
                    message);
            return Optional.empty();
        }
        // DELAY stays on the delivered message, as consumers of Apache's broker see it there.
        MessageToStore real = MessageRewrite.of(message)
                .property(MessageProperties.REAL_TOPIC, null).property(MessageProperties.REAL_QUEUE_ID, null)
                .to(topic, queueId, storeHost.get());
        CompletableFuture<AppendResult> appended = store.appendAsync(real);
        if (appended.isDone() && !appended.join().isStored()) {
            AppendResult refused = appended.join();
            // tried again on the next run while the store refuses (a full disk): one line per interval
            LOG.log(refusals.level(clock.nanos()), "cannot deliver a delayed message to {0} yet: {1} {2}", topic,
                    refused.status(), refused.detail());
        }
        return Optional.of(appended);
    }

    private static int realQueueId(String text) {
        try {
            return text == null ? -1 : Integer.parseInt(text);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Next offsets by level, for administration and tests. */
    Map<Integer, Long> progress() {
        return new TreeMap<>(nextOffsets);
    }

    void persistIfChanged() {
        unsaved.saveIfAny(this::persist);
    }

    void persist() {
        file.write(snapshot());
    }

    /** The delay progress as RocketMQ writes it ({@code delayOffset.json}), for a slave. */
    Stored snapshot() {
        return new Stored(new HashMap<>(nextOffsets));
    }

    /** The master's delay progress in place of this one (a slave's copy, which delivers nothing itself). */
    void replaceWith(Stored master) {
        if (master.offsetTable() == null) {
            return;
        }
        Map<Integer, Long> valid = new HashMap<>();
        master.offsetTable().forEach((level, offset) -> {
            if (level != null && level > 0 && offset != null && offset >= 0) {
                valid.put(level, offset);
            }
        });
        nextOffsets.keySet().retainAll(valid.keySet());
        nextOffsets.putAll(valid);
        unsaved.record();
    }
}
