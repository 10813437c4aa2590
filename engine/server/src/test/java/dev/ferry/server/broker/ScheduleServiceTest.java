package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.ferry.format.CapturedLog;
import dev.ferry.format.DelayLevels;
import dev.ferry.format.ManualClock;
import dev.ferry.format.StoredMessageView;
import dev.ferry.format.SystemTopics;
import dev.ferry.store.DiskSpace;
import dev.ferry.store.FlushMode;
import dev.ferry.store.MessageFilterPredicate;
import dev.ferry.store.MessageStore;
import dev.ferry.store.MessageToStore;
import dev.ferry.store.StoreConfig;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScheduleServiceTest {
    private static final InetSocketAddress HOST = new InetSocketAddress("127.0.0.1", 10911);

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(1_700_000_000_000L);

    private MessageStore open() {
        return MessageStore.builder(StoreConfig.builder(dir.resolve("store")).commitLogSegmentSize(1024 * 1024)
                .build()).clock(clock).open();
    }

    private static MessageToStore message(String body) {
        return MessageToStore.builder("TopicDelayed", 2, body.getBytes(StandardCharsets.UTF_8))
                .properties(Map.of("KEYS", body, "DELAY", "2")).storeHost(HOST).build();
    }

    private static void awaitQueue(MessageStore store, String topic, int queueId, long max) {
        await().atMost(Duration.ofSeconds(5)).until(() -> store.nextOffset(topic, queueId) == max);
    }

    @Test
    void shouldDeliverADelayedMessageNotBeforeItsLevelsDelayAndThenToItsRealQueue() {
        DelayLevels levels = DelayLevels.parse("1s 5s");
        try (MessageStore store = open()) {
            ScheduleService schedule = new ScheduleService(levels, store, dir.resolve("config"), clock, () -> HOST);
            assertThat(schedule.requestedLevel("DELAY\u00012\u0002")).isEqualTo(2);
            assertThat(schedule.requestedLevel("DELAY\u000199\u0002")).as("clamped").isEqualTo(2);
            assertThat(schedule.requestedLevel("KEYS\u0001k\u0002")).isZero();
            store.append(schedule.delay(message("m1"), 2));
            awaitQueue(store, SystemTopics.SCHEDULE_TOPIC, 1, 1);

            clock.advance(Duration.ofMillis(4_999));
            schedule.deliverDue();
            assertThat(store.nextOffset("TopicDelayed", 2)).isZero();

            clock.advance(Duration.ofMillis(1));
            schedule.deliverDue();
            awaitQueue(store, "TopicDelayed", 2, 1);
            StoredMessageView delivered = store.getMessages("TopicDelayed", 2, 0, 1, 1 << 20,
                    MessageFilterPredicate.ALL).views().get(0);
            assertThat(delivered.property("KEYS")).isEqualTo("m1");
            assertThat(delivered.property("DELAY")).as("kept, as on Apache's broker").isEqualTo("2");
            assertThat(delivered.property("REAL_TOPIC")).isNull();
            assertThat(schedule.progress()).containsEntry(2, 1L);
        }
    }

    @Test
    void shouldWarnOfDeliveriesAFullDiskRefusesOncePerIntervalAndDeliverOnceFreed() {
        AtomicLong usable = new AtomicLong(1L << 39);
        DelayLevels levels = DelayLevels.parse("1s 5s");
        try (MessageStore store = MessageStore.builder(StoreConfig.builder(dir.resolve("store"))
                .commitLogSegmentSize(1024 * 1024).build()).clock(clock)
                .diskSpace(DiskSpace.of(1L << 40, usable::get)).open()) {
            ScheduleService schedule = new ScheduleService(levels, store, dir.resolve("config"), clock, () -> HOST);
            store.append(schedule.delay(message("m1"), 1));
            awaitQueue(store, SystemTopics.SCHEDULE_TOPIC, 0, 1);
            usable.set((1L << 40) / 20); // 95% used: the store refuses appends

            List<LogRecord> warnings;
            try (CapturedLog log = CapturedLog.of(ScheduleService.class)) {
                for (int run = 0; run < 300; run++) { // 30 s of runs, each trying the due message again
                    clock.advance(Duration.ofMillis(100));
                    schedule.deliverDue();
                }
                warnings = log.atLeast(Level.WARNING);
            }
            assertThat(store.nextOffset("TopicDelayed", 2)).isZero();
            assertThat(warnings).as("one line per 10 s of refusals, not one per run").hasSizeBetween(2, 4)
                    .allMatch(r -> r.getMessage().startsWith("cannot deliver a delayed message"));

            usable.set(1L << 39);
            clock.advance(Duration.ofSeconds(2)); // the disk guard looks again
            schedule.deliverDue();
            awaitQueue(store, "TopicDelayed", 2, 1);
        }
    }

    @Test
    void shouldNeverWaitForTheDiskUnderSyncFlushAndCountADeliveryDoneOnceItIsDurable() {
        DelayLevels levels = DelayLevels.parse("1s 5s");
        try (MessageStore store = open()) {
            ScheduleService schedule = new ScheduleService(levels, store, dir.resolve("config"), clock, () -> HOST);
            store.append(schedule.delay(message("held"), 2));
            store.append(schedule.delay(message("held too"), 2));
        }
        HeldForces forces = new HeldForces();
        try (MessageStore store = MessageStore.builder(StoreConfig.builder(dir.resolve("store"))
                .commitLogSegmentSize(1024 * 1024).flushMode(FlushMode.SYNC_FLUSH)
                .syncFlushTimeout(Duration.ofMinutes(5)).build()).clock(clock).threadFactory(forces).open()) {
            try {
                ScheduleService schedule = new ScheduleService(levels, store, dir.resolve("config"), clock,
                        () -> HOST);
                awaitQueue(store, SystemTopics.SCHEDULE_TOPIC, 1, 2);
                clock.advance(Duration.ofSeconds(5));

                assertTimeoutPreemptively(Duration.ofSeconds(30), schedule::deliverDue);
                schedule.deliverDue();

                assertThat(schedule.progress()).as("nothing durable yet").doesNotContainKey(2);
                forces.release();
                await().atMost(Duration.ofSeconds(30)).until(() -> schedule.progress().getOrDefault(2, 0L) == 2L);
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> store.dispatchedOffset() == store.commitLogEndOffset());
                assertThat(store.nextOffset("TopicDelayed", 2)).as("each delivered once: read on from the cursor")
                        .isEqualTo(2);
            } finally {
                forces.release(); // before the store closes, which waits for its loops
            }
        }
    }

    @Test
    void shouldResumeFromPersistedProgressSoNothingIsDeliveredTwiceAfterARestart() {
        DelayLevels levels = DelayLevels.parse("1s 5s");
        try (MessageStore store = open()) {
            ScheduleService schedule = new ScheduleService(levels, store, dir.resolve("config"), clock, () -> HOST);
            store.append(schedule.delay(message("first"), 2));
            awaitQueue(store, SystemTopics.SCHEDULE_TOPIC, 1, 1);
            clock.advance(Duration.ofSeconds(5));
            schedule.deliverDue();
            awaitQueue(store, "TopicDelayed", 2, 1);
            store.append(schedule.delay(message("second"), 2));
            awaitQueue(store, SystemTopics.SCHEDULE_TOPIC, 1, 2);
            schedule.persist();
        }
        try (MessageStore store = open()) {
            ScheduleService schedule = new ScheduleService(levels, store, dir.resolve("config"), clock, () -> HOST);
            assertThat(schedule.progress()).containsEntry(2, 1L);
            schedule.deliverDue();
            assertThat(store.nextOffset("TopicDelayed", 2)).as("the second is not due yet").isEqualTo(1);
            clock.advance(Duration.ofSeconds(5));
            schedule.deliverDue();
            awaitQueue(store, "TopicDelayed", 2, 2);
        }
    }

    @Test
    void shouldParseRocketMqDelayLevelsAndNameTheBadOne() {
        assertThat(DelayLevels.DEFAULT.maxLevel()).isEqualTo(18);
        assertThat(DelayLevels.DEFAULT.delay(18)).isEqualTo(Duration.ofHours(2));
        assertThat(DelayLevels.DEFAULT.delay(3)).isEqualTo(Duration.ofSeconds(10));
        assertThat(DelayLevels.parse("500ms 2m").delay(7)).isEqualTo(Duration.ofMinutes(2));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> DelayLevels.parse("1s 5x"))
                .hasMessageContaining("delayLevels").hasMessageContaining("5x");
    }
}
