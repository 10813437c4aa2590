package dev.ferry.server.timer;

import dev.ferry.format.Clock;
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
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Holds timer messages until their slot and then delivers each to its real topic and queue, once.
 *
 * <p>The timer messages themselves stay in the commit log (topic {@link SystemTopics#TIMER_TOPIC}, queue 0), where the
 * send wrote them and replication copies them. This store indexes them ({@link #enqueue}): one {@link TimerRecord}
 * per message, appended to the {@link TimerLog} and chained into its slot of the {@link SlotRing}; and fires them
 * ({@link #fire}): when a slot's time has passed, its chain is walked and each message appended to its real queue, in
 * batches. Memory is the ring (a fixed size) and one batch, whatever the number of waiting timers.
 *
 * <p>Once: before a batch, {@code progress.json} names where its deliveries will be written; after it is durable,
 * where the walk goes on. Every delivery carries its timer message's commit-log offset as its prepared-transaction
 * offset, so recovery reads the deliveries after that point and skips their timers. The ring is saved now and then
 * ({@code ring}) with where the log then ended; recovery restores it and replays the log written since, then reads on
 * from the timer queue what the log had not taken yet.
 *
 * <p>All work runs on one thread, the caller of {@link #tick()}; {@link #slotCount} and {@link #figures} may be called
 * from any.
 */
public final class TimerStore implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(TimerStore.class.getName());
    /** Slots in the ring: three days and a little more at the default precision. */
    static final int RING_SLOTS = 1 << 18;
    static final int SEGMENT_RECORDS = 1 << 20;
    private static final int BATCH = 1024;
    private static final int ENQUEUE_PER_TICK = 16_384;
    private static final int MAX_CANCELS_PER_SLOT = 100_000;
    private static final long TICK_BUDGET_MS = 100;
    private static final long SNAPSHOT_EVERY_MS = 30_000;
    private static final long IDLE_PROGRESS_EVERY_MS = 5_000;

    private final TimerSettings settings;
    private final MessageStore store;
    private final Clock clock;
    /** Paces the warning of deliveries the store refused. */
    private final LogPace refusals = new LogPace(Duration.ofSeconds(10));
    private final Supplier<InetSocketAddress> storeHost;
    private final Predicate<String> topicExists;
    private final int precision;
    private final TimerLog log;
    private final SlotRing ring;
    private final RingSnapshot snapshots;
    private final JsonFile<TimerProgress> progressFile;

    /** The next timer-queue offset to index; read by other threads for figures. */
    private volatile long nextQueueOffset;
    /** The slot firing is at: every earlier one has fired. */
    private volatile long cursor;
    /** Where the cursor slot's walk goes on, or -1 while it has not begun. */
    private long resumeAt = -1;
    private long slotStartOffset;
    /** Timers whose delivery recovery found already written; each is skipped once. */
    private final Set<Long> delivered = new HashSet<>();
    /** Timers a roll had already put in their slot before a crash, found by replay. */
    private final Set<Long> rolled = new HashSet<>();
    /** Until the cursor passes it, the sets above may hold timers still to meet. */
    private long recoveredUntil = Long.MIN_VALUE;
    /** What the cursor slot's cancel entries name. */
    private final Set<String> cancels = new HashSet<>();
    private volatile boolean firing;
    private long lastSnapshot;
    private long snapshotLogEnd = -1;
    private long lastProgressWrite;
    private volatile long expiryFloor = Long.MAX_VALUE;
    /** By log segment: {latest slot, oldest timer message's offset} its entries name. */
    private final Map<Long, long[]> segmentSummaries = new HashMap<>();
    /** A master's progress for a slave to take, on the timer thread. */
    private volatile TimerProgress masterProgress;
    /** What {@link #progress()} answers from other threads. */
    private volatile TimerProgress published;

    private final AtomicLong pending = new AtomicLong();
    private final AtomicLong enqueued = new AtomicLong();
    private final AtomicLong fired = new AtomicLong();
    private final AtomicLong cancelled = new AtomicLong();
    private final AtomicLong lost = new AtomicLong();
    /** What the batch being fired did, counted once it is durable: a refused batch is walked again. */
    private BatchTally batch = new BatchTally();

    private static final class BatchTally {
        int done;
        int fired;
        int lost;
        int cancelled;
        final List<Long> found = new ArrayList<>();
        final List<Long> rerolled = new ArrayList<>();
    }

    /**
     * @param topicExists whether a fired message's real topic still exists (a deleted topic's timers are dropped)
     */
    public TimerStore(TimerSettings settings, MessageStore store, Path directory, Clock clock,
                      Supplier<InetSocketAddress> storeHost, Predicate<String> topicExists) {
        this(settings, store, directory, clock, storeHost, topicExists, SEGMENT_RECORDS);
    }

    /** With {@code segmentRecords} entries per log segment: small ones let tests see segments go. */
    TimerStore(TimerSettings settings, MessageStore store, Path directory, Clock clock,
               Supplier<InetSocketAddress> storeHost, Predicate<String> topicExists, int segmentRecords) {
        this.settings = settings;
        this.store = store;
        this.clock = clock;
        this.storeHost = storeHost;
        this.topicExists = topicExists;
        this.precision = settings.precisionMs();
        this.log = new TimerLog(directory.resolve("log"), segmentRecords);
        this.ring = new SlotRing(precision, RING_SLOTS);
        this.snapshots = new RingSnapshot(directory.resolve("ring"));
        this.progressFile = new JsonFile<>(directory.resolve("progress.json"), TimerProgress.class);
        try {
            recover();
        } catch (RuntimeException e) {
            log.close();
            throw e;
        }
    }

    private void recover() {
        long now = clock.millis();
        Optional<TimerProgress> saved = progressFile.read();
        TimerProgress progress = saved.orElse(new TimerProgress(floor(now), -1, -1, store.commitLogEndOffset()));
        if (saved.isEmpty()) {
            // kept at once: a slave that never hears its master's progress fires, once promoted, from here on
            progressFile.write(progress);
        }
        cursor = progress.cursorMs();
        resumeAt = progress.resumeAt();
        slotStartOffset = progress.slotStartOffset();
        long[] restored = {0};
        RingSnapshot.Header header = snapshots.load((slot, head, count) -> {
            if (slot >= cursor) {
                ring.restore(slot, head, count);
                restored[0] += count;
            }
        }).orElse(new RingSnapshot.Header(0, 0, cursor));
        nextQueueOffset = header.nextQueueOffset();
        long commitEnd = store.commitLogEndOffset();
        long[] replayed = {0};
        long[] goodEnd = {Math.max(header.logEnd(), log.start())};
        boolean[] stop = {false};
        log.replay(goodEnd[0], (position, entry) -> {
            if (stop[0] || entry.source() + entry.sourceSize() > commitEnd) {
                stop[0] = true; // the commit log lost its message: read it again from the queue, if it is there
                return;
            }
            goodEnd[0] = position + TimerRecord.SIZE;
            if (entry.rolled()) {
                rolled.add(entry.source());
            } else {
                nextQueueOffset = Math.max(nextQueueOffset, entry.queueOffset() + 1);
            }
            if (entry.slotMs() >= cursor) {
                ring.link(entry.slotMs(), position);
                replayed[0]++;
            }
        });
        log.truncate(goodEnd[0]);
        if (progress.scanFrom() >= 0) {
            findDelivered(progress.scanFrom());
        }
        recoveredUntil = Math.max(floor(now), cursor);
        pending.set(restored[0] + replayed[0] - walkedBeforeResume());
        lastSnapshot = now;
        snapshotLogEnd = header.logEnd();
        moveExpiryFloor(); // before retention's first pass
        LOG.log(Level.INFO, "timer store: firing from {0,number,#}, {1} timers waiting ({2} replayed), {3} deliveries "
                + "found already written, timer queue read from {4,number,#}", cursor, pending.get(), replayed[0],
                delivered.size(), nextQueueOffset);
    }

    /** The entries of the cursor slot's chain a stop left behind it: walked already, so waiting no more. */
    private int walkedBeforeResume() {
        if (resumeAt < 0) {
            return 0;
        }
        int walked = 0;
        long position = ring.head(cursor);
        while (position >= 0 && position != resumeAt) {
            TimerRecord entry = log.read(position);
            if (entry == null) {
                return 0;
            }
            walked++;
            position = entry.previous();
        }
        return position == resumeAt ? walked : 0;
    }

    private long floor(long millis) {
        return millis - Math.floorMod(millis, precision);
    }

    /** Starts or stops firing: a master fires, a slave only indexes and takes its master's progress. */
    public void firing(boolean value) {
        this.firing = value;
    }

    /** Indexes what was sent, fires what is due, and saves now and then; on the timer thread. */
    public void tick() {
        long started = clock.millis();
        takeMasterProgress();
        enqueue();
        if (firing) {
            fire(started + TICK_BUDGET_MS);
        }
        long now = clock.millis();
        if (now - lastSnapshot >= SNAPSHOT_EVERY_MS) {
            saveRing();
            dropFiredSegments();
        }
        if (now - lastProgressWrite >= IDLE_PROGRESS_EVERY_MS && resumeAt < 0 && firing) {
            writeProgress(-1);
        }
    }

    /** Reads on from the timer queue and puts each timer in its slot. */
    private void enqueue() {
        int indexed = 0;
        while (indexed < ENQUEUE_PER_TICK) {
            GetMessageResult result = store.getMessages(SystemTopics.TIMER_TOPIC, 0, nextQueueOffset, 256,
                    4 << 20, MessageFilterPredicate.ALL);
            if (result.status() == GetMessageStatus.OFFSET_TOO_SMALL) {
                LOG.log(Level.WARNING, "timer messages from queue offset {0,number,#} to {1,number,#} were deleted "
                        + "before they were indexed", nextQueueOffset, result.minOffset());
                lost.addAndGet(result.minOffset() - nextQueueOffset);
                nextQueueOffset = result.minOffset();
                continue;
            }
            if (result.status() != GetMessageStatus.FOUND) {
                return;
            }
            for (StoredMessageView message : result.views()) {
                index(message);
                nextQueueOffset = message.queueOffset() + 1;
                indexed++;
            }
        }
    }

    private void index(StoredMessageView message) {
        long fireMs = fireTime(message);
        if (fireMs == Long.MIN_VALUE) {
            LOG.log(Level.WARNING, "a message in the timer topic at {0,number,#} has no valid TIMER_OUT_MS; dropped",
                    message.physicalOffset());
            lost.incrementAndGet();
            return;
        }
        TimerRecord.Kind kind = kindOf(message);
        place(new TimerRecord(kind, 0, fireMs, message.physicalOffset(), message.totalSize(), -1,
                message.queueOffset(), false));
        enqueued.incrementAndGet();
        if (kind == TimerRecord.Kind.DELIVER) {
            pending.incrementAndGet();
        }
    }

    /** A timer message naming another's key cancels it; any other is delivered. */
    private static TimerRecord.Kind kindOf(StoredMessageView message) {
        return message.property(MessageProperties.TIMER_DEL_UNIQKEY) != null ? TimerRecord.Kind.CANCEL
                : TimerRecord.Kind.DELIVER;
    }

    private static long fireTime(StoredMessageView message) {
        String value = message.property(MessageProperties.TIMER_OUT_MS);
        try {
            return value == null ? Long.MIN_VALUE : Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return Long.MIN_VALUE;
        }
    }

    /**
     * Chains the entry into its slot: the slot of its time, or the first that has not begun to fire when that is
     * past, or the ring's last one as a roll when its time is beyond the ring.
     */
    private void place(TimerRecord entry) {
        long open = resumeAt >= 0 ? cursor + precision : cursor;
        long slot = Math.max(floor(entry.fireMs()), open);
        TimerRecord.Kind kind = entry.kind();
        if (slot - cursor >= ring.span()) {
            kind = TimerRecord.Kind.ROLL;
            slot = cursor + ring.span() - precision;
        }
        long position = log.append(entry.inSlot(kind, slot).withPrevious(ring.head(slot)));
        ring.link(slot, position);
        long[] summary = summary(log.segmentOf(position));
        summary[0] = Math.max(summary[0], slot);
        if (entry.rolled() || kind == TimerRecord.Kind.ROLL) {
            summary[1] = Math.min(summary[1], entry.source());
        }
    }

    /**
     * The latest slot of a log segment's entries and the oldest timer message its rolled entries name (whose messages
     * are older than the segment's others), read once per segment.
     */
    private long[] summary(long base) {
        return segmentSummaries.computeIfAbsent(base, segment -> {
            long[] found = {Long.MIN_VALUE, Long.MAX_VALUE};
            log.forEachIn(segment, entry -> {
                found[0] = Math.max(found[0], entry.slotMs());
                if (entry.rolled() || entry.kind() == TimerRecord.Kind.ROLL) {
                    found[1] = Math.min(found[1], entry.source());
                }
            });
            return found;
        });
    }

    /** Fires every slot whose time has passed, batch by batch, until {@code deadline}. */
    private void fire(long deadline) {
        while (clock.millis() < deadline) {
            long now = clock.millis();
            if (resumeAt < 0) {
                if (cursor + precision > now) {
                    return; // a slot fires once its whole time has passed: never before the time asked for
                }
                long head = ring.head(cursor);
                if (head < 0) {
                    advance();
                    continue;
                }
                slotStartOffset = store.commitLogEndOffset();
                resumeAt = head;
                collectCancels(head);
            } else if (cancels.isEmpty() && !cancelsCollected) {
                collectCancels(ring.head(cursor));
            }
            if (!fireBatch()) {
                return;
            }
        }
    }

    private boolean cancelsCollected;

    private void collectCancels(long head) {
        cancels.clear();
        for (long position = head; position >= 0; ) {
            TimerRecord entry = log.read(position);
            if (entry == null) {
                break;
            }
            if (entry.kind() == TimerRecord.Kind.CANCEL && cancels.size() < MAX_CANCELS_PER_SLOT) {
                store.messageAt(entry.source()).map(m -> m.property(MessageProperties.TIMER_DEL_UNIQKEY))
                        .ifPresent(cancels::add);
            }
            position = entry.previous();
        }
        cancelsCollected = true;
    }

    private void advance() {
        boolean hadEntries = ring.count(cursor) > 0;
        ring.clear(cursor);
        cursor += precision;
        cancels.clear();
        cancelsCollected = false;
        if (cursor > recoveredUntil) {
            delivered.clear();
            rolled.clear();
        }
        if (hadEntries) {
            log.force();
            slotStartOffset = store.commitLogEndOffset();
            writeProgress(-1);
        }
    }

    /**
     * Delivers up to one batch of the cursor slot's chain and waits for it to be durable; false when the store
     * refused one, and the batch is walked again later.
     */
    private boolean fireBatch() {
        long batchFrom = store.commitLogEndOffset();
        writeProgress(batchFrom);
        batch = new BatchTally();
        List<CompletableFuture<AppendResult>> appended = new ArrayList<>();
        long position = resumeAt;
        int walked = 0;
        while (position >= 0 && walked < BATCH) {
            TimerRecord entry = log.read(position);
            if (entry == null) {
                LOG.log(Level.ERROR, "the timer log has no intact entry at {0,number,#}; the rest of slot {1,number,#}"
                        + " is lost", position, cursor);
                position = -1;
                break;
            }
            handle(entry, appended);
            position = entry.previous();
            walked++;
        }
        for (CompletableFuture<AppendResult> future : appended) {
            AppendResult result = future.join();
            if (!result.isStored()) {
                // walked again later: what this batch did write is found then and not written twice
                // retried every tick while the store refuses (a full disk): one line per interval, not per attempt
                LOG.log(refusals.level(clock.nanos()), "cannot deliver timer messages now: {0} {1}", result.status(),
                        result.detail() == null ? "" : result.detail());
                findDelivered(batchFrom);
                delivered.addAll(batch.found); // skipped this time, so still to skip when walked again
                rolled.addAll(batch.rerolled); // already in their slots
                recoveredUntil = Math.max(recoveredUntil, cursor);
                return false;
            }
        }
        pending.addAndGet(-batch.done);
        fired.addAndGet(batch.fired);
        lost.addAndGet(batch.lost);
        cancelled.addAndGet(batch.cancelled);
        resumeAt = position;
        if (position < 0) {
            advance(); // straight to the next slot: a cursor left on this one with no position would walk it again
        } else {
            writeProgress(-1);
        }
        return true;
    }

    /** Remembers the timers whose deliveries are in the commit log from {@code from} on, to skip them once. */
    private void findDelivered(long from) {
        store.forEachMessage(from, store.commitLogEndOffset(), message -> {
            // offset 0 is a timer too when it was a fresh broker's first message: the timer must match its delivery
            long source = message.preparedTransactionOffset();
            if (source >= 0 && message.property(MessageProperties.TIMER_DEQUEUE_MS) != null
                    && !SystemTopics.TIMER_TOPIC.equals(message.topic())
                    && store.messageAt(source).filter(timer -> isTimerOf(timer, message)).isPresent()) {
                delivered.add(source);
            }
        });
    }

    private static boolean isTimerOf(StoredMessageView timer, StoredMessageView delivery) {
        return SystemTopics.TIMER_TOPIC.equals(timer.topic())
                && delivery.topic().equals(timer.property(MessageProperties.REAL_TOPIC))
                && Objects.equals(delivery.property(MessageProperties.UNIQ_KEY),
                        timer.property(MessageProperties.UNIQ_KEY));
    }

    private void handle(TimerRecord entry, List<CompletableFuture<AppendResult>> appended) {
        switch (entry.kind()) {
            case CANCEL -> { }
            case ROLL -> {
                if (!rolled.remove(entry.source())) {
                    reRoll(entry);
                }
            }
            case DELIVER -> deliver(entry).ifPresent(appended::add);
        }
    }

    private void reRoll(TimerRecord entry) {
        StoredMessageView message = store.messageAt(entry.source()).orElse(null);
        if (message == null) {
            batch.done++;
            batch.lost++;
            return;
        }
        batch.rerolled.add(entry.source());
        TimerRecord.Kind kind = kindOf(message);
        place(new TimerRecord(kind, 0, entry.fireMs(), entry.source(), entry.sourceSize(), -1, entry.queueOffset(),
                true));
    }

    private Optional<CompletableFuture<AppendResult>> deliver(TimerRecord entry) {
        batch.done++;
        if (delivered.remove(entry.source())) {
            batch.found.add(entry.source());
            return Optional.empty();
        }
        StoredMessageView message = store.messageAt(entry.source())
                .filter(m -> SystemTopics.TIMER_TOPIC.equals(m.topic())).orElse(null);
        if (message == null) {
            batch.lost++;
            LOG.log(Level.WARNING, "the timer message at {0,number,#} is no longer in the commit log; not delivered",
                    entry.source());
            return Optional.empty();
        }
        String topic = message.property(MessageProperties.REAL_TOPIC);
        int queueId = queueId(message.property(MessageProperties.REAL_QUEUE_ID));
        if (topic == null || queueId < 0 || !topicExists.test(topic)) {
            batch.lost++;
            LOG.log(Level.WARNING, "dropping a timer message for {0}:{1}: no such topic now", topic, queueId);
            return Optional.empty();
        }
        String uniqueKey = message.property(MessageProperties.UNIQ_KEY);
        if (!cancels.isEmpty() && uniqueKey != null && cancels.contains(topic + "+" + uniqueKey)) {
            batch.cancelled++;
            return Optional.empty();
        }
        Map<String, String> properties = new LinkedHashMap<>(message.properties());
        properties.remove(MessageProperties.REAL_TOPIC);
        properties.remove(MessageProperties.REAL_QUEUE_ID);
        properties.put(MessageProperties.TIMER_ENQUEUE_MS, Long.toString(message.storeTimestamp()));
        properties.put(MessageProperties.TIMER_DEQUEUE_MS, Long.toString(clock.millis()));
        MessageToStore real = MessageToStore.builder(topic, queueId, message.bodyBytes()).flag(message.flag())
                .properties(MessageProperties.format(properties)).sysFlag(message.sysFlag())
                .bornTimestamp(message.bornTimestamp()).bornHost(message.bornHost()).storeHost(storeHost.get())
                .reconsumeTimes(message.reconsumeTimes()).preparedTransactionOffset(entry.source()).build();
        batch.fired++;
        return Optional.of(store.appendAsync(real));
    }

    private static int queueId(String text) {
        try {
            return text == null ? -1 : Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private void writeProgress(long scanFrom) {
        if (resumeAt < 0 && scanFrom < 0) {
            slotStartOffset = Math.max(slotStartOffset, store.commitLogEndOffset());
        }
        TimerProgress now = new TimerProgress(cursor, resumeAt, scanFrom, slotStartOffset);
        progressFile.write(now);
        published = now;
        lastProgressWrite = clock.millis();
    }

    private void saveRing() {
        log.force();
        long end = log.end();
        snapshots.save(new RingSnapshot.Header(end, nextQueueOffset, cursor), ring);
        snapshotLogEnd = end;
        lastSnapshot = clock.millis();
    }

    /**
     * Deletes the log's oldest segments once every entry in them has fired and a saved ring no longer needs them, and
     * moves the floor below which the commit log may expire: the oldest timer message an entry still names, or the
     * first one not indexed yet.
     */
    private void dropFiredSegments() {
        for (long[] segment : log.closedSegments()) {
            if (summary(segment[0])[0] >= cursor || segment[1] > snapshotLogEnd) {
                break;
            }
            log.deleteOldest();
            segmentSummaries.remove(segment[0]);
        }
        moveExpiryFloor();
    }

    /**
     * The floor is the oldest message a waiting entry names: entries read from the queue name messages in log order, so
     * it is in the oldest segment with an entry still waiting, unless a later segment holds a rolled entry (which
     * names an older message); and no lower than the first message not indexed yet.
     */
    private void moveExpiryFloor() {
        long floor = store.physicalOffsetOf(SystemTopics.TIMER_TOPIC, 0, nextQueueOffset)
                .orElse(store.commitLogEndOffset());
        boolean found = false;
        for (long base = log.start(); base < log.end(); base += log.segmentBytes()) {
            if (found) {
                floor = Math.min(floor, summary(base)[1]);
            } else if (summary(base)[0] >= cursor) {
                long[] oldest = {Long.MAX_VALUE};
                log.forEachIn(base, entry -> {
                    if (entry.slotMs() >= cursor) {
                        oldest[0] = Math.min(oldest[0], entry.source());
                    }
                });
                floor = Math.min(floor, oldest[0]);
                found = true;
            }
        }
        expiryFloor = floor;
    }

    /** Where commit-log expiry must stop so that no waiting timer loses its message. */
    public long expiryFloor() {
        return expiryFloor;
    }

    /** How many timers wait in the slot of {@code slotMs} (approximate from other threads). */
    public int slotCount(long slotMs) {
        return ring.count(slotMs);
    }

    /** The master's progress in place of this one's: on a slave, which fires nothing itself; taken on the next tick. */
    public void followMaster(TimerProgress master) {
        this.masterProgress = master;
    }

    private void takeMasterProgress() {
        TimerProgress master = masterProgress;
        masterProgress = null;
        if (master == null || firing || master.cursorMs() < cursor) {
            return;
        }
        long target = floor(master.cursorMs());
        for (long slot = cursor; slot < target && slot < cursor + ring.span(); slot += precision) {
            pending.addAndGet(-countDeliveries(slot));
            ring.clear(slot);
        }
        cursor = target;
        resumeAt = -1;
        slotStartOffset = master.slotStartOffset();
        // once promoted, this broker finds what its master delivered from there on and does not deliver it again
        TimerProgress taken = new TimerProgress(cursor, -1, slotStartOffset, slotStartOffset);
        progressFile.write(taken);
        published = taken;
        lastProgressWrite = clock.millis();
    }

    private int countDeliveries(long slot) {
        int count = 0;
        for (long position = ring.head(slot); position >= 0; ) {
            TimerRecord entry = log.read(position);
            if (entry == null) {
                break;
            }
            if (entry.kind() != TimerRecord.Kind.CANCEL) {
                count++; // a ROLL entry is a waiting timer too
            }
            position = entry.previous();
        }
        return count;
    }

    /** The progress a slave takes ({@code GET_TIMER_CHECK_POINT}). */
    public TimerProgress progress() {
        TimerProgress now = published;
        return now != null ? now : new TimerProgress(cursor, -1, -1, slotStartOffset);
    }

    public long nextQueueOffset() {
        return nextQueueOffset;
    }

    /** Log segments on disk, for tests. */
    int logSegments() {
        return log.closedSegments().size() + (log.end() > log.start() ? 1 : 0);
    }

    /** The timer store's figures, under the names of Apache's timer metrics. */
    public record Figures(long waiting, long enqueueLag, long dequeueLagMs, long enqueued, long fired, long cancelled,
                          long lost) {
    }

    public Figures figures() {
        long behind = Math.max(0, store.nextOffset(SystemTopics.TIMER_TOPIC, 0) - nextQueueOffset);
        long lag = firing ? Math.max(0, clock.millis() - cursor - precision) : 0;
        return new Figures(Math.max(0, pending.get()), behind, lag, enqueued.get(), fired.get(), cancelled.get(),
                lost.get());
    }

    /** Saves where everything stands, for a quick start; on the timer thread, after its last tick. */
    @Override
    public void close() {
        try {
            saveRing();
            if (resumeAt < 0 && firing) {
                writeProgress(-1);
            }
        } finally {
            log.close();
        }
    }
}
