package dev.ferry.server.timer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.Clock;
import dev.ferry.format.CapturedLog;
import dev.ferry.format.ManualClock;
import dev.ferry.format.MessageProperties;
import dev.ferry.format.StoredMessageView;
import dev.ferry.format.SystemTopics;
import dev.ferry.store.DiskSpace;
import dev.ferry.store.GetMessageResult;
import dev.ferry.store.GetMessageStatus;
import dev.ferry.store.MessageFilterPredicate;
import dev.ferry.store.MessageStore;
import dev.ferry.store.MessageToStore;
import dev.ferry.store.StoreConfig;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TimerStoreTest {
    private static final InetSocketAddress HOST = new InetSocketAddress("127.0.0.1", 10911);
    private static final String TOPIC = "orders";
    /** On a second boundary, so that slots are easy to name. */
    private static final long START = 1_700_000_000_000L;

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(START + 250);
    private final List<AutoCloseable> open = new ArrayList<>();
    private MessageStore store;

    private int commitLogSegmentSize = 64 << 20;
    /** What the store's disk has usable: half of it, unless a test fills it. */
    private final java.util.concurrent.atomic.AtomicLong usable = new java.util.concurrent.atomic.AtomicLong(1L << 39);

    private MessageStore store() {
        if (store == null) {
            store = MessageStore.builder(StoreConfig.builder(dir.resolve("store"))
                    .commitLogSegmentSize(commitLogSegmentSize).fileRetention(Duration.ofHours(1)).build())
                    // a roomy disk: past its clean ratio the host's own disk would have retention delete early
                    .clock(clock).diskSpace(DiskSpace.of(1L << 40, usable::get)).open();
            open.add(store);
        }
        return store;
    }

    private int logSegmentRecords = TimerStore.SEGMENT_RECORDS;

    private TimerStore timers(TimerSettings settings) {
        TimerStore timers = new TimerStore(settings, store(), dir.resolve("timer"), clock, () -> HOST,
                topic -> !topic.equals("deleted"), logSegmentRecords);
        store().expiryFloor(timers::expiryFloor);
        timers.firing(true);
        open.add(0, timers);
        return timers;
    }

    private TimerStore timers() {
        return timers(TimerSettings.defaults());
    }

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable closeable : open) {
            closeable.close();
        }
    }

    /** Sends a message as a producer would, through the send path's timer step. */
    private TimerRouting.Decision send(TimerStore timers, String key, Map<String, String> timer) {
        Map<String, String> properties = new LinkedHashMap<>(timer);
        properties.put(MessageProperties.UNIQ_KEY, key);
        MessageToStore message = MessageToStore.builder(timer.containsKey("topic") ? timer.get("topic") : TOPIC, 1,
                key.getBytes(StandardCharsets.UTF_8)).properties(MessageProperties.format(properties))
                .bornTimestamp(clock.millis()).bornHost(HOST).storeHost(HOST).build();
        TimerRouting.Decision decision = new TimerRouting(TimerSettings.defaults(), clock, timers::slotCount)
                .route(message);
        if (!decision.refused()) {
            assertThat(store().append(decision.message()).isStored()).isTrue();
        }
        return decision;
    }

    private TimerRouting.Decision sendAt(TimerStore timers, String key, long deliverMs) {
        return send(timers, key, Map.of(MessageProperties.TIMER_DELIVER_MS, Long.toString(deliverMs)));
    }

    private List<StoredMessageView> delivered(String topic) {
        store().flush();
        GetMessageResult result = store().getMessages(topic, 1, 0, 10_000, Integer.MAX_VALUE,
                MessageFilterPredicate.ALL);
        return result.status() == GetMessageStatus.FOUND ? result.views() : List.of();
    }

    private List<String> deliveredKeys() {
        return delivered(TOPIC).stream().map(m -> m.property(MessageProperties.UNIQ_KEY)).toList();
    }

    /** Ticks until the store has indexed everything, with the clock where it is. */
    private void settle(TimerStore timers) {
        for (int i = 0; i < 200; i++) {
            timers.tick();
        }
    }

    private void advanceTo(TimerStore timers, long millis) {
        while (clock.millis() < millis) {
            clock.advance(Duration.ofMillis(Math.min(50, millis - clock.millis())));
            timers.tick();
        }
    }

    @Test
    void shouldDeliverAtTheFirstSlotBoundaryAtOrAfterTheTimeAskedAndNeverBefore() {
        TimerStore timers = timers();
        TimerRouting.Decision held = sendAt(timers, "a", START + 3_400);
        assertThat(held.message().topic()).isEqualTo(SystemTopics.TIMER_TOPIC);
        assertThat(held.message().properties()).contains(MessageProperties.TIMER_OUT_MS + "\u0001" + (START + 3_000));
        sendAt(timers, "b", START + 3_000); // on a boundary: fires at it
        settle(timers);

        advanceTo(timers, START + 2_999);
        assertThat(deliveredKeys()).isEmpty();
        advanceTo(timers, START + 3_000);
        assertThat(deliveredKeys()).containsExactly("b");
        advanceTo(timers, START + 3_999);
        assertThat(deliveredKeys()).containsExactly("b");
        advanceTo(timers, START + 4_000);
        assertThat(deliveredKeys()).containsExactly("b", "a");

        StoredMessageView fired = delivered(TOPIC).get(1);
        assertThat(fired.queueId()).isEqualTo(1);
        assertThat(fired.property(MessageProperties.REAL_TOPIC)).isNull();
        assertThat(fired.property(MessageProperties.REAL_QUEUE_ID)).isNull();
        assertThat(fired.property(MessageProperties.TIMER_OUT_MS)).isEqualTo(Long.toString(START + 3_000));
        assertThat(fired.property(MessageProperties.TIMER_DELIVER_MS)).isEqualTo(Long.toString(START + 3_400));
        assertThat(Long.parseLong(fired.property(MessageProperties.TIMER_DEQUEUE_MS))).isGreaterThanOrEqualTo(
                START + 3_400);
        assertThat(fired.property(MessageProperties.TIMER_ENQUEUE_MS)).isNotNull();
        assertThat(timers.figures().fired()).isEqualTo(2);
        assertThat(timers.figures().waiting()).isZero();
    }

    @Test
    void shouldWarnOfRefusedDeliveriesOncePerIntervalWhileTheDiskIsFullAndDeliverOnceFreed() {
        TimerStore timers = timers();
        sendAt(timers, "due-while-full", START + 5_000); // the disk guard looks again by then
        usable.set((1L << 40) / 20); // 95% used: the store refuses appends
        List<java.util.logging.LogRecord> warnings;
        try (CapturedLog log = CapturedLog.of(TimerStore.class)) {
            advanceTo(timers, START + 35_000); // 600 ticks after it is due, each trying the slot again
            warnings = log.atLeast(java.util.logging.Level.WARNING);
        }

        assertThat(deliveredKeys()).isEmpty();
        assertThat(warnings).as("one line per 10 s of refusals, not one per attempt").hasSizeBetween(3, 4)
                .allMatch(r -> r.getMessage().contains("cannot deliver timer messages now"));

        usable.set(1L << 39);
        advanceTo(timers, START + 40_000);
        assertThat(deliveredKeys()).containsExactly("due-while-full");
    }

    @Test
    void shouldCountDelaysFromTheSendAndDeliverPastTimesAtOnce() {
        TimerStore timers = timers();
        assertThat(send(timers, "sec", Map.of(MessageProperties.TIMER_DELAY_SEC, "2")).message().topic())
                .isEqualTo(SystemTopics.TIMER_TOPIC);
        assertThat(send(timers, "ms", Map.of(MessageProperties.TIMER_DELAY_MS, "1500")).message().topic())
                .isEqualTo(SystemTopics.TIMER_TOPIC);
        assertThat(sendAt(timers, "past", START - 5_000).message().topic()).isEqualTo(TOPIC);
        settle(timers);
        advanceTo(timers, START + 1_999);
        assertThat(deliveredKeys()).containsExactly("past");
        advanceTo(timers, START + 3_000);
        assertThat(deliveredKeys()).containsExactlyInAnyOrder("past", "ms", "sec");
    }

    @Test
    void shouldRefuseATimeBeyondTheLongestDelayAndOneThatIsNotANumber() {
        TimerStore timers = timers();
        TimerRouting.Decision tooFar = sendAt(timers, "far", clock.millis() + Duration.ofDays(3).toMillis() + 1_000);
        assertThat(tooFar.refused()).isTrue();
        assertThat(tooFar.refusalCode()).isEqualTo(13);
        assertThat(tooFar.remark()).startsWith("timer message illegal, the delay time should not be bigger than the "
                + "max delay 259200000ms");
        assertThat(send(timers, "nan", Map.of(MessageProperties.TIMER_DELAY_SEC, "soon")).refused()).isTrue();
        assertThat(delivered(SystemTopics.TIMER_TOPIC)).isEmpty();
    }

    @Test
    void shouldNotHoldAMessageThatAlreadyFired() {
        TimerStore timers = timers();
        TimerRouting.Decision again = send(timers, "x", Map.of(MessageProperties.TIMER_DELIVER_MS,
                Long.toString(START + 5_000), MessageProperties.TIMER_OUT_MS, Long.toString(START + 4_000)));
        assertThat(again.message().topic()).isEqualTo(TOPIC);
    }

    @Test
    void shouldCancelAPendingTimerNamedByTopicAndUniqueKey() {
        TimerStore timers = timers();
        sendAt(timers, "keep", START + 2_500);
        sendAt(timers, "drop", START + 2_500);
        send(timers, "cancel", Map.of(MessageProperties.TIMER_DELIVER_MS, Long.toString(START + 2_500),
                MessageProperties.TIMER_DEL_UNIQKEY, TOPIC + "+drop"));
        settle(timers);
        advanceTo(timers, START + 4_000);
        assertThat(deliveredKeys()).containsExactly("keep");
        assertThat(timers.figures().cancelled()).isEqualTo(1);
    }

    @Test
    void shouldDropTimersOfATopicDeletedBeforeTheyFire() {
        TimerStore timers = timers();
        send(timers, "gone", Map.of(MessageProperties.TIMER_DELIVER_MS, Long.toString(START + 1_500), "topic",
                "deleted"));
        settle(timers);
        advanceTo(timers, START + 3_000);
        assertThat(delivered("deleted")).isEmpty();
        assertThat(timers.figures().lost()).isEqualTo(1);
    }

    @Test
    void shouldKeepWaitingTimersAcrossACleanRestart() throws Exception {
        TimerStore first = timers();
        for (int i = 0; i < 500; i++) {
            sendAt(first, "k" + i, START + 2_000 + i * 10L);
        }
        settle(first);
        advanceTo(first, START + 3_000);
        int before = deliveredKeys().size();
        assertThat(before).isBetween(1, 499);
        first.close();
        open.remove(first);

        TimerStore second = timers();
        advanceTo(second, START + 10_000);
        assertThat(deliveredKeys()).hasSize(500).doesNotHaveDuplicates();
    }

    @Test
    void shouldRecoverFromTheLogWhenTheRingWasNeverSavedAndDeliverEachOnce() {
        TimerStore crashed = timers();
        for (int i = 0; i < 200; i++) {
            sendAt(crashed, "k" + i, START + 2_000 + (i % 3) * 1_000L);
        }
        settle(crashed);
        advanceTo(crashed, START + 3_000); // first slot fired, its progress written
        // no close: as after a kill, neither ring nor progress is saved beyond what the firing wrote
        TimerStore recovered = new TimerStore(TimerSettings.defaults(), store(), dir.resolve("timer"), clock,
                () -> HOST, topic -> true);
        recovered.firing(true);
        open.add(0, recovered);
        advanceTo(recovered, START + 6_000);
        assertThat(deliveredKeys()).hasSize(200).doesNotHaveDuplicates();
    }

    @Test
    void shouldSkipDeliveriesAlreadyWrittenWhenProgressNamesWhereToLook() throws Exception {
        TimerStore master = timers();
        for (int i = 0; i < 50; i++) {
            sendAt(master, "k" + i, START + 2_000);
        }
        settle(master);
        long beforeFiring = store().commitLogEndOffset();
        advanceTo(master, START + 3_000);
        assertThat(deliveredKeys()).hasSize(50);
        master.close();
        open.remove(master);
        // progress as a slave takes it from its master just before the slot fired, or as a kill leaves it mid-batch,
        // and no saved ring: the log is replayed, so the fired slot's entries wait again and must be skipped
        new dev.ferry.server.files.JsonFile<>(dir.resolve("timer").resolve("progress.json"), TimerProgress.class)
                .write(new TimerProgress(START + 1_000, -1, beforeFiring, beforeFiring));
        try (java.util.stream.Stream<Path> saved = java.nio.file.Files.list(dir.resolve("timer"))) {
            for (Path ring : saved.filter(f -> f.getFileName().toString().startsWith("ring")).toList()) {
                java.nio.file.Files.delete(ring);
            }
        }

        TimerStore promoted = timers();
        advanceTo(promoted, START + 5_000);
        assertThat(deliveredKeys()).hasSize(50).doesNotHaveDuplicates();
    }

    /**
     * Fires one slot of {@code timers} timers (the first of them the commit log's first message, at offset 0) and
     * returns every progress the store published meanwhile: what progress.json held at that moment, so what a kill
     * may leave.
     */
    private List<TimerProgress> fireOneSlotWatchingProgress(int timers) {
        List<TimerProgress> written = new ArrayList<>();
        TimerStore[] watched = new TimerStore[1];
        Clock watching = new Clock() { // each progress write reads the clock just after it
            @Override
            public long millis() {
                TimerProgress now = watched[0] == null ? null : watched[0].progress();
                if (now != null && (written.isEmpty() || !written.get(written.size() - 1).equals(now))) {
                    written.add(now);
                }
                return clock.millis();
            }

            @Override
            public long nanos() {
                return clock.nanos();
            }
        };
        TimerStore killed = new TimerStore(TimerSettings.defaults(), store(), dir.resolve("timer"), watching,
                () -> HOST, topic -> true);
        killed.firing(true);
        open.add(0, killed);
        watched[0] = killed;
        for (int i = 0; i < timers; i++) {
            sendAt(killed, "k" + i, START + 2_000);
        }
        settle(killed);
        advanceTo(killed, START + 3_000); // their slot, START + 1_000, fires and the cursor moves on
        assertThat(deliveredKeys()).hasSize(timers);
        return written;
    }

    /**
     * Recovers as after a kill that left {@code progress} (and never closed the store), fires what is due and checks
     * that each of the {@code timers} was delivered once; returns the recovered store.
     */
    private TimerStore assertEachDeliveredOnceAfterAKillThatLeft(TimerProgress progress, int timers) {
        new dev.ferry.server.files.JsonFile<>(dir.resolve("timer").resolve("progress.json"), TimerProgress.class)
                .write(progress);
        TimerStore recovered = new TimerStore(TimerSettings.defaults(), store(), dir.resolve("timer"), clock,
                () -> HOST, topic -> true);
        recovered.firing(true);
        open.add(0, recovered);
        advanceTo(recovered, START + 5_000);
        assertThat(deliveredKeys()).as("after a kill that left " + progress).hasSize(timers).doesNotHaveDuplicates();
        return recovered;
    }

    @Test
    void shouldNotDeliverAgainWhatABatchWroteBeforeAKillEvenTheCommitLogsFirstMessage() {
        TimerProgress beforeTheBatch = fireOneSlotWatchingProgress(30).stream()
                .filter(p -> p.cursorMs() == START + 1_000 && p.scanFrom() >= 0).findFirst().orElseThrow();

        assertEachDeliveredOnceAfterAKillThatLeft(beforeTheBatch, 30);
    }

    @Test
    void shouldNotDeliverASlotAgainWhenKilledAfterItsLastBatchBeforeTheCursorMoved() {
        TimerProgress lastOfTheSlot = fireOneSlotWatchingProgress(30).stream()
                .filter(p -> p.cursorMs() == START + 1_000).reduce((first, second) -> second).orElseThrow();

        assertEachDeliveredOnceAfterAKillThatLeft(lastOfTheSlot, 30);
    }

    @Test
    void shouldCountNoTimerAsWaitingOnceAllFiredAfterAKillInASlotsSecondBatch() {
        // more than a batch: the second is written from the middle of the slot's chain
        TimerProgress beforeTheSecondBatch = fireOneSlotWatchingProgress(1_500).stream()
                .filter(p -> p.cursorMs() == START + 1_000 && p.scanFrom() >= 0).reduce((first, second) -> second)
                .orElseThrow();

        TimerStore recovered = assertEachDeliveredOnceAfterAKillThatLeft(beforeTheSecondBatch, 1_500);

        assertThat(recovered.figures().waiting()).as("timers waiting").isZero();
    }

    @Test
    void shouldRollATimerBeyondTheRingAndStillFireItOnTime() {
        // at 10 ms the ring reaches 43 minutes: an hour's timer waits in its last slot, then in its own
        TimerSettings fine = TimerSettings.defaults().withPrecisionMs(10);
        TimerStore timers = timers(fine);
        long due = START + Duration.ofHours(1).toMillis() + 5;
        TimerRouting.Decision held = new TimerRouting(fine, clock, timers::slotCount).route(
                MessageToStore.builder(TOPIC, 1, new byte[] {1}).properties(MessageProperties.format(Map.of(
                        MessageProperties.TIMER_DELIVER_MS, Long.toString(due), MessageProperties.UNIQ_KEY, "late")))
                        .bornHost(HOST).storeHost(HOST).build());
        store().append(held.message());
        settle(timers);
        advanceTo(timers, due - 20);
        assertThat(deliveredKeys()).isEmpty();
        advanceTo(timers, due + 10);
        assertThat(deliveredKeys()).containsExactly("late");
    }

    /** Moves the clock in big steps, ticking after each, as hours pass on a broker. */
    private void passHours(TimerStore timers, long untilMillis) {
        while (clock.millis() < untilMillis) {
            clock.advance(Duration.ofMillis(Math.min(60_000, untilMillis - clock.millis())));
            timers.tick();
        }
    }

    @Test
    void shouldKeepAWaitingTimersCommitLogSegmentPastRetentionAndLetItGoOnceFired() {
        commitLogSegmentSize = 64 << 10;
        TimerStore timers = timers();
        long due = START + Duration.ofHours(2).toMillis();
        sendAt(timers, "waiting", due);
        byte[] filler = new byte[1024];
        for (int i = 0; i < 200; i++) {
            store().append(MessageToStore.builder("other", 0, filler).bornHost(HOST).storeHost(HOST).build());
        }
        settle(timers);
        passHours(timers, START + Duration.ofMinutes(90).toMillis());
        store().flush();
        assertThat(store().deleteExpiredSegments()).as("segments older than the retention, one holding a timer")
                .isZero();
        assertThat(store().commitLogMinOffset()).isZero();

        passHours(timers, due + 1_000);
        assertThat(deliveredKeys()).containsExactly("waiting");
        passHours(timers, due + 61_000); // the floor moves with the next save
        store().flush();
        assertThat(store().deleteExpiredSegments()).isPositive();
    }

    @Test
    void shouldDeleteTimerLogSegmentsOnceEverythingInThemFired() {
        logSegmentRecords = 64;
        TimerStore timers = timers();
        for (int i = 0; i < 300; i++) {
            sendAt(timers, "k" + i, START + 2_000 + (i % 3) * 1_000L);
        }
        sendAt(timers, "later", START + Duration.ofHours(1).toMillis());
        settle(timers);
        assertThat(timers.logSegments()).isGreaterThanOrEqualTo(5);
        passHours(timers, START + 65_000);
        assertThat(deliveredKeys()).hasSize(300);
        assertThat(timers.logSegments()).as("only the segment holding the hour's timer").isEqualTo(1);
        passHours(timers, START + Duration.ofHours(1).toMillis() + 1_000);
        assertThat(deliveredKeys()).hasSize(301).contains("later");
    }

    @Test
    void shouldFireOncePromotedWhatASlaveHeldWhenItNeverHeardItsMastersProgress() throws Exception {
        TimerStore slave = timers();
        slave.firing(false);
        for (int i = 0; i < 20; i++) {
            sendAt(slave, "k" + i, START + 2_000 + i * 100L);
        }
        settle(slave);
        advanceTo(slave, START + 10_000); // the master is gone before its progress was copied
        assertThat(deliveredKeys()).isEmpty();
        slave.close();
        open.remove(slave);

        TimerStore promoted = timers();
        advanceTo(promoted, START + 11_000);
        assertThat(deliveredKeys()).hasSize(20).doesNotHaveDuplicates();
    }
}
