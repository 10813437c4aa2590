package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.api.BatchMessageListener;
import dev.ferry.api.BatchResult;
import dev.ferry.api.MessageListener;
import dev.ferry.api.MessageModel;
import dev.ferry.api.MessageQueue;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.format.Clock;
import dev.ferry.format.ManualClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Both consume services against a recording listener, a fake send-back and a hand-driven {@link Later}. */
class ConsumeServicesTest {
    private static final MessageQueue QUEUE = new MessageQueue("Orders", "broker-a", 0);
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final MemoryOffsetStore offsets = new MemoryOffsetStore();
    private final ManualLater later = new ManualLater();
    private final List<String> consumed = new CopyOnWriteArrayList<>();
    private final Set<String> failing = ConcurrentHashMap.newKeySet();
    private final List<String> sentBack = new CopyOnWriteArrayList<>();
    private final Map<String, Integer> sentBackLevels = new ConcurrentHashMap<>();
    private final AtomicBoolean sendBackWorks = new AtomicBoolean(true);
    private ConsumeService service;
    private final ManualClock pauseClock = new ManualClock();
    private final List<PausedQueue> pausedEvents = new CopyOnWriteArrayList<>();
    private final List<String> resumedEvents = new CopyOnWriteArrayList<>();
    private final QueuePauses pauses = new QueuePauses("CG", new ConsumerEvents() {
        @Override
        public void queuePaused(PausedQueue paused, Throwable lastFailure) {
            pausedEvents.add(paused);
        }

        @Override
        public void queueResumed(MessageQueue queue, String msgId, boolean skipped) {
            resumedEvents.add(msgId + (skipped ? " skipped" : " again"));
        }
    }, pauseClock);

    private ConcurrentConsumeService concurrent(PushConsumerConfig config, MessageListener listener) {
        return new ConcurrentConsumeService(config, BatchDelivery.of(listener, false), offsets, sendBack, later,
                pauses, Thread::new);
    }

    private OrderlyConsumeService orderly(PushConsumerConfig config, MessageListener listener,
                                          java.util.function.Predicate<ProcessQueue> locked, Clock clock) {
        return new OrderlyConsumeService(config, BatchDelivery.of(listener, true), offsets, sendBack, locked, later,
                clock, pauses, Thread::new);
    }

    private final SendBack sendBack = (message, maxReconsumeTimes, delayLevel) -> {
        if (!sendBackWorks.get()) {
            throw new IllegalStateException("the broker is away");
        }
        sentBack.add(body(message));
        sentBackLevels.put(body(message), delayLevel);
    };

    @AfterEach
    void shutdown() {
        if (service != null) {
            service.shutdown(WAIT);
        }
    }

    private static String body(ReceivedMessage message) {
        return new String(message.body(), StandardCharsets.UTF_8);
    }

    private void listen(ReceivedMessage message) throws Exception {
        String body = body(message);
        if (failing.contains(body)) {
            throw new Exception("cannot take " + body);
        }
        consumed.add(body);
    }

    /** A queue holding messages at offsets {@code from} to {@code to - 1}, pulled as one batch. */
    private static List<ReceivedMessage> pulledInto(ProcessQueue queue, long from, long to) {
        List<ReceivedMessage> messages = LongStream.range(from, to).mapToObj(offset -> new ReceivedMessage("Orders",
                ("m" + offset).getBytes(StandardCharsets.UTF_8), Map.of(), "id" + offset, "broker-a", 0, offset,
                offset * 100, 0, 1, 2)).toList();
        queue.pulled(queue.pullPosition().epoch(), messages, to);
        return messages;
    }

    private PushConsumerConfig config(boolean orderly, int maxReconsumeTimes) {
        return PushConsumerConfig.builder("CG").subscribe("Orders", "*").consumeOrderly(orderly).consumeThreads(2)
                .consumeBatchSize(1).maxReconsumeTimes(maxReconsumeTimes).build();
    }

    @Test
    void shouldCommitTheLowestOffsetStillInFlightAndSendFailuresBack() {
        service = concurrent(config(false, 16), this::listen);
        ProcessQueue queue = new ProcessQueue(QUEUE, 0, new ManualClock());
        failing.add("m1");

        service.submit(queue, pulledInto(queue, 0, 4));

        await().atMost(WAIT).until(() -> offsets.memory.getOrDefault(QUEUE, -1L) == 4L);
        assertThat(consumed).containsExactlyInAnyOrder("m0", "m2", "m3");
        assertThat(sentBack).containsExactly("m1");
        assertThat(sentBackLevels).containsEntry("m1", 0);
    }

    @Test
    void shouldConsumeAgainHereAfterAPauseWhatTheBrokerWouldNotTakeBack() {
        service = concurrent(config(false, 16), this::listen);
        ProcessQueue queue = new ProcessQueue(QUEUE, 0, new ManualClock());
        failing.add("m0");
        sendBackWorks.set(false);

        service.submit(queue, pulledInto(queue, 0, 2));

        // m1's thread may commit after m0's has set its retry aside
        await().atMost(WAIT).until(() -> later.delays().equals(List.of(Duration.ofSeconds(5)))
                && offsets.memory.containsKey(QUEUE));
        assertThat(offsets.memory).as("m0 is still in flight").containsEntry(QUEUE, 0L);
        failing.clear();
        later.runAll();
        await().atMost(WAIT).until(() -> offsets.memory.getOrDefault(QUEUE, -1L) == 2L);
        assertThat(consumed).containsExactlyInAnyOrder("m1", "m0");
    }

    @Test
    void shouldDropABroadcastMessageThatFailsInsteadOfSendingItBack() {
        PushConsumerConfig broadcasting = PushConsumerConfig.builder("CG").subscribe("Orders", "*")
                .messageModel(MessageModel.BROADCASTING).consumeBatchSize(1).build();
        service = concurrent(broadcasting, this::listen);
        ProcessQueue queue = new ProcessQueue(QUEUE, 0, new ManualClock());
        failing.add("m0");

        service.submit(queue, pulledInto(queue, 0, 2));

        await().atMost(WAIT).until(() -> offsets.memory.getOrDefault(QUEUE, -1L) == 2L);
        assertThat(sentBack).isEmpty();
        assertThat(later.delays()).isEmpty();
    }

    @Test
    void shouldConsumeInOrderRetryInPlaceThenMoveTheMessageToTheDeadLetterQueue() {
        service = orderly(config(true, 2), this::listen, queue -> true, Clock.system());
        ProcessQueue queue = new ProcessQueue(QUEUE, 0, new ManualClock());
        failing.add("m1");

        service.submit(queue, pulledInto(queue, 0, 3));

        // m1 fails twice, each time waiting a pause to be retried in place; failing a third time, more than
        // maxReconsumeTimes, it goes to the dead-letter queue
        for (int attempt = 1; attempt <= 2; attempt++) {
            await().atMost(WAIT).until(() -> !later.delays().isEmpty());
            assertThat(consumed).containsExactly("m0");
            later.runAll();
        }
        await().atMost(WAIT).until(() -> offsets.memory.getOrDefault(QUEUE, -1L) == 3L);
        assertThat(consumed).containsExactly("m0", "m2");
        assertThat(sentBack).containsExactly("m1");
        assertThat(sentBackLevels).containsEntry("m1", -1);
    }

    @Test
    void shouldConsumeNothingWhileTheQueuesLockIsNotHeld() {
        AtomicBoolean locked = new AtomicBoolean();
        service = orderly(config(true, 16), this::listen, q -> locked.get(), Clock.system());
        ProcessQueue queue = new ProcessQueue(QUEUE, 0, new ManualClock());

        service.submit(queue, pulledInto(queue, 0, 2));

        await().atMost(WAIT).until(() -> !later.delays().isEmpty());
        assertThat(consumed).isEmpty();
        locked.set(true);
        later.runAll();
        await().atMost(WAIT).until(() -> consumed.size() == 2);
        assertThat(consumed).containsExactly("m0", "m1");
    }

    @Test
    void shouldLetOtherQueuesHaveTheThreadOnceATaskRanPastItsTime() {
        ManualClock clock = new ManualClock();
        ProcessQueue first = new ProcessQueue(QUEUE, 0, new ManualClock());
        ProcessQueue second = new ProcessQueue(new MessageQueue("Orders", "broker-a", 1), 0, new ManualClock());
        List<ReceivedMessage> secondMessages = List.of(new ReceivedMessage("Orders",
                "other".getBytes(StandardCharsets.UTF_8), Map.of(), "other", "broker-a", 1, 0, 9, 0, 1, 2));
        second.pulled(second.pullPosition().epoch(), secondMessages, 1);
        AtomicBoolean submitted = new AtomicBoolean();
        PushConsumerConfig oneThread = PushConsumerConfig.builder("CG").subscribe("Orders", "*").consumeOrderly(true)
                .consumeThreads(1).build();
        service = orderly(oneThread, message -> {
            listen(message);
            clock.advance(Duration.ofSeconds(61)); // each message takes longer than a task may keep
            if (submitted.compareAndSet(false, true)) {
                service.submit(second, secondMessages); // waits for the only thread
            }
        }, queue -> true, clock);

        service.submit(first, pulledInto(first, 0, 3));

        await().atMost(WAIT).until(() -> consumed.size() == 4);
        assertThat(consumed).as("the second queue's turn comes after one message of the first")
                .containsExactly("m0", "other", "m1", "m2");
        assertThat(later.delays()).as("new tasks, not pauses").isEmpty();
    }

    // --- batches ---

    private final List<List<String>> batches = new CopyOnWriteArrayList<>();

    private PushConsumerConfig.Builder batchConfig(boolean orderly, int size, Duration wait) {
        return PushConsumerConfig.builder("CG").subscribe("Orders", "*").consumeOrderly(orderly).consumeThreads(1)
                .consumeBatchSize(size).consumeBatchWait(wait);
    }

    /** Records each batch; fails from the first message whose body is in {@link #failing}. */
    private BatchResult listenToBatch(List<ReceivedMessage> batch) {
        batches.add(batch.stream().map(ConsumeServicesTest::body).toList());
        for (ReceivedMessage message : batch) {
            if (failing.contains(body(message))) {
                return BatchResult.failedFrom(message);
            }
            consumed.add(body(message));
        }
        return BatchResult.consumed();
    }

    private ConsumeService batchService(PushConsumerConfig config, BatchMessageListener listener, Clock clock) {
        return config.orderly()
                ? new OrderlyConsumeService(config, BatchDelivery.of(listener), offsets, sendBack, q -> true, later,
                        clock, pauses, Thread::new)
                : new ConcurrentConsumeService(config, BatchDelivery.of(listener), offsets, sendBack, later, pauses,
                        Thread::new);
    }

    @Test
    void shouldHandAConcurrentBatchListenerFullBatchesOfOneQueueInQueueOrder() {
        service = batchService(batchConfig(false, 3, Duration.ZERO).build(), this::listenToBatch, Clock.system());
        ProcessQueue queue = new ProcessQueue(QUEUE, 0, new ManualClock());

        service.submit(queue, pulledInto(queue, 0, 7));

        await().atMost(WAIT).until(() -> offsets.memory.getOrDefault(QUEUE, -1L) == 7L);
        assertThat(batches).containsExactlyInAnyOrder(List.of("m0", "m1", "m2"), List.of("m3", "m4", "m5"),
                List.of("m6"));
    }

    @Test
    void shouldHoldAShortConcurrentBatchUntilItFillsOrItsWaitEnds() {
        service = batchService(batchConfig(false, 4, Duration.ofSeconds(2)).build(), this::listenToBatch,
                Clock.system());
        ProcessQueue queue = new ProcessQueue(QUEUE, 0, new ManualClock());

        service.submit(queue, pulledInto(queue, 0, 2));
        assertThat(later.delays()).containsExactly(Duration.ofSeconds(2));
        assertThat(batches).isEmpty();
        service.submit(queue, pulledInto(queue, 2, 5)); // fills a batch of four; one waits

        await().atMost(WAIT).until(() -> batches.size() == 1);
        assertThat(batches).containsExactly(List.of("m0", "m1", "m2", "m3"));
        later.runAll(); // the wait ends
        await().atMost(WAIT).until(() -> offsets.memory.getOrDefault(QUEUE, -1L) == 5L);
        assertThat(batches).containsExactly(List.of("m0", "m1", "m2", "m3"), List.of("m4"));
    }

    @Test
    void shouldSendBackOnlyTheMessagesFromTheFirstOneABatchListenerNamesAsFailed() {
        service = batchService(batchConfig(false, 4, Duration.ZERO).build(), this::listenToBatch, Clock.system());
        ProcessQueue queue = new ProcessQueue(QUEUE, 0, new ManualClock());
        failing.add("m2");

        service.submit(queue, pulledInto(queue, 0, 4));

        await().atMost(WAIT).until(() -> offsets.memory.getOrDefault(QUEUE, -1L) == 4L);
        assertThat(consumed).containsExactly("m0", "m1");
        assertThat(sentBack).containsExactly("m2", "m3");
    }

    @Test
    void shouldRetryAWholeBatchWhoseListenerThrows() {
        service = batchService(batchConfig(false, 2, Duration.ZERO).build(), batch -> {
            throw new IllegalStateException("down");
        }, Clock.system());
        ProcessQueue queue = new ProcessQueue(QUEUE, 0, new ManualClock());

        service.submit(queue, pulledInto(queue, 0, 2));

        await().atMost(WAIT).until(() -> sentBack.size() == 2);
        assertThat(sentBack).containsExactly("m0", "m1");
    }

    @Test
    void shouldFailTheWholeBatchWhenItsListenerNamesAMessageItWasNotGiven() {
        ReceivedMessage stranger = new ReceivedMessage("Orders", new byte[0], Map.of(), "x", "broker-a", 0, 99, 0, 0,
                1, 2);
        BatchDelivery delivery = BatchDelivery.of(batch -> BatchResult.failedFrom(stranger));
        ProcessQueue queue = new ProcessQueue(QUEUE, 0, new ManualClock());

        BatchDelivery.Outcome outcome = delivery.deliver(pulledInto(queue, 0, 2));

        assertThat(outcome.failed()).hasSize(2);
        assertThat(outcome.failure()).hasMessageContaining("not in the batch");
        assertThat(BatchDelivery.of(batch -> null).deliver(pulledInto(queue, 2, 3)).failed())
                .as("null takes the batch").isEmpty();
    }

    @Test
    void shouldKeepAQueuesOrderAcrossOrderlyBatchesAndRetryFromTheFirstFailedMessage() {
        service = batchService(batchConfig(true, 3, Duration.ZERO).build(), this::listenToBatch, Clock.system());
        ProcessQueue queue = new ProcessQueue(QUEUE, 0, new ManualClock());
        failing.add("m4");

        service.submit(queue, pulledInto(queue, 0, 7));

        await().atMost(WAIT).until(() -> !later.delays().isEmpty());
        assertThat(batches).containsExactly(List.of("m0", "m1", "m2"), List.of("m3", "m4", "m5"));
        assertThat(offsets.memory).as("m3 consumed, m4 not").containsEntry(QUEUE, 4L);
        assertThat(later.delays()).containsExactly(InPlaceRetries.DEFAULT_WAIT);
        failing.clear();
        later.runAll();
        await().atMost(WAIT).until(() -> offsets.memory.getOrDefault(QUEUE, -1L) == 7L);
        assertThat(batches).containsExactly(List.of("m0", "m1", "m2"), List.of("m3", "m4", "m5"),
                List.of("m4", "m5", "m6"));
        assertThat(consumed).containsExactly("m0", "m1", "m2", "m3", "m4", "m5", "m6");
    }

    @Test
    void shouldLetAShortOrderlyBatchWaitForMoreUntilItsWaitEnds() {
        ManualClock clock = new ManualClock();
        service = batchService(batchConfig(true, 3, Duration.ofSeconds(1)).build(), this::listenToBatch, clock);
        ProcessQueue queue = new ProcessQueue(QUEUE, 0, new ManualClock());

        service.submit(queue, pulledInto(queue, 0, 1));
        await().atMost(WAIT).until(() -> !later.delays().isEmpty());
        assertThat(later.delays()).containsExactly(Duration.ofSeconds(1));
        service.submit(queue, pulledInto(queue, 1, 2)); // still short: waits on the timer already set
        clock.advance(Duration.ofSeconds(1));
        later.runAll();

        await().atMost(WAIT).until(() -> offsets.memory.getOrDefault(QUEUE, -1L) == 2L);
        assertThat(batches).containsExactly(List.of("m0", "m1"));
    }

    // --- redelivery policy ---

    @Test
    void shouldAskTheBrokerForTheDelayLevelThePolicyWantsForEachRedelivery() {
        PushConsumerConfig config = PushConsumerConfig.builder("CG").subscribe("Orders", "*").consumeThreads(1)
                .redelivery(new RedeliveryPolicy(Duration.ofSeconds(10), 2, Duration.ofMinutes(1))).build();
        service = concurrent(config, this::listen);
        ProcessQueue queue = new ProcessQueue(QUEUE, 0, new ManualClock());
        failing.add("first");
        failing.add("third");
        List<ReceivedMessage> messages = List.of(
                new ReceivedMessage("Orders", "first".getBytes(StandardCharsets.UTF_8), Map.of(), "a", "broker-a", 0,
                        0, 0, 0, 1, 2),
                new ReceivedMessage("Orders", "third".getBytes(StandardCharsets.UTF_8), Map.of(), "b", "broker-a", 0,
                        1, 0, 2, 1, 2));
        queue.pulled(queue.pullPosition().epoch(), messages, 2);

        service.submit(queue, messages);

        await().atMost(WAIT).until(() -> sentBack.size() == 2);
        assertThat(sentBackLevels).as("10 s is level 3 (10s); the third failure wants 40 s: level 5 (1m)")
                .containsEntry("first", 3).containsEntry("third", 5);
    }

    @Test
    void shouldWaitThePolicysGrowingDelaysBetweenOrderlyRetries() {
        PushConsumerConfig config = PushConsumerConfig.builder("CG").subscribe("Orders", "*").consumeOrderly(true)
                .consumeThreads(1).maxReconsumeTimes(5)
                .redelivery(new RedeliveryPolicy(Duration.ofMillis(100), 3, Duration.ofMillis(500))).build();
        service = orderly(config, this::listen, q -> true, Clock.system());
        ProcessQueue queue = new ProcessQueue(QUEUE, 0, new ManualClock());
        failing.add("m0");

        service.submit(queue, pulledInto(queue, 0, 1));
        List<Duration> waits = new java.util.ArrayList<>();
        for (int attempt = 1; attempt <= 4; attempt++) {
            await().atMost(WAIT).until(() -> !later.delays().isEmpty());
            waits.addAll(later.delays());
            later.runAll();
        }

        assertThat(waits).containsExactly(Duration.ofMillis(100), Duration.ofMillis(300), Duration.ofMillis(500),
                Duration.ofMillis(500));
    }

    @Test
    void shouldRefuseARedeliveryPolicyWhoseLargestDelayIsShorterThanItsFirst() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new RedeliveryPolicy(Duration.ofSeconds(10), 2,
                Duration.ofSeconds(5))).hasMessageContaining("maxRedeliveryDelay");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new RedeliveryPolicy(Duration.ofSeconds(1), 0.5,
                Duration.ofSeconds(5))).hasMessageContaining("redeliveryMultiplier");
    }

    // --- poison messages ---

    private static final MessageQueue OTHER = new MessageQueue("Orders", "broker-a", 1);

    private PushConsumerConfig pausing(boolean orderly, int after, int maxReconsumeTimes) {
        return PushConsumerConfig.builder("CG").subscribe("Orders", "*").consumeOrderly(orderly).consumeThreads(2)
                .pauseQueueAfterFailures(after).maxReconsumeTimes(maxReconsumeTimes).build();
    }

    private static List<ReceivedMessage> pulledInto(ProcessQueue queue, String prefix, long from, long to) {
        List<ReceivedMessage> messages = LongStream.range(from, to).mapToObj(offset -> new ReceivedMessage("Orders",
                (prefix + offset).getBytes(StandardCharsets.UTF_8), Map.of(), prefix + "id" + offset, "broker-a",
                queue.queue().queueId(), offset, offset * 100, 0, 1, 2)).toList();
        queue.pulled(queue.pullPosition().epoch(), messages, to);
        return messages;
    }

    @Test
    void shouldPauseOnlyThePoisonedQueueOfAConcurrentConsumerAndDeliverThePoisonAgainOnResume() {
        service = concurrent(pausing(false, 3, 16), this::listen);
        ProcessQueue poisoned = new ProcessQueue(QUEUE, 0, new ManualClock());
        ProcessQueue healthy = new ProcessQueue(OTHER, 0, new ManualClock());
        failing.add("m1");

        service.submit(poisoned, pulledInto(poisoned, 0, 3));
        service.submit(healthy, pulledInto(healthy, "h", 0, 2));
        for (int attempt = 1; attempt < 3; attempt++) {
            await().atMost(WAIT).until(() -> !later.delays().isEmpty());
            later.runAll(); // retried in place
        }
        await().atMost(WAIT).until(() -> !pausedEvents.isEmpty());

        PausedQueue paused = pausedEvents.get(0);
        assertThat(paused.queue()).isEqualTo(QUEUE);
        assertThat(paused.msgId()).isEqualTo("id1");
        assertThat(paused.failures()).isEqualTo(3);
        assertThat(paused.lastFailure()).contains("cannot take m1");
        assertThat(service.paused()).containsExactly(paused);
        assertThat(poisoned.isPaused()).isTrue();
        assertThat(sentBack).as("retried here, never handed back").isEmpty();
        await().atMost(WAIT).until(() -> offsets.memory.getOrDefault(OTHER, -1L) == 2L);
        assertThat(offsets.memory).as("the poisoned queue holds at the poison").containsEntry(QUEUE, 1L);

        service.submit(poisoned, pulledInto(poisoned, 3, 4)); // arrives while paused: waits
        assertThat(consumed).doesNotContain("m3");

        failing.clear();
        assertThat(service.resume(poisoned, false)).isTrue();
        await().atMost(WAIT).until(() -> offsets.memory.getOrDefault(QUEUE, -1L) == 4L);
        assertThat(consumed).contains("m1", "m3");
        assertThat(service.paused()).isEmpty();
        assertThat(resumedEvents).containsExactly("id1 again");
        assertThat(service.resume(poisoned, false)).as("no longer paused").isFalse();
    }

    @Test
    void shouldSkipAnOrderlyQueuesPoisonToTheDeadLetterQueueAndGoOnInOrder() {
        service = orderly(pausing(true, 2, 16), this::listen, q -> true, Clock.system());
        ProcessQueue poisoned = new ProcessQueue(QUEUE, 0, new ManualClock());
        failing.add("m1");

        service.submit(poisoned, pulledInto(poisoned, 0, 4));
        await().atMost(WAIT).until(() -> !later.delays().isEmpty());
        later.runAll();
        await().atMost(WAIT).until(() -> !pausedEvents.isEmpty());
        assertThat(later.delays()).as("a paused queue is not retried").isEmpty();
        assertThat(consumed).containsExactly("m0");

        assertThat(service.resume(poisoned, true)).isTrue();

        await().atMost(WAIT).until(() -> offsets.memory.getOrDefault(QUEUE, -1L) == 4L);
        assertThat(consumed).containsExactly("m0", "m2", "m3");
        assertThat(sentBack).containsExactly("m1");
        assertThat(sentBackLevels).containsEntry("m1", -1);
        assertThat(resumedEvents).containsExactly("id1 skipped");
    }

    @Test
    void shouldKeepTheQueuePausedWhenTheSkippedPoisonCannotReachTheDeadLetterQueue() {
        service = orderly(pausing(true, 1, 16), this::listen, q -> true, Clock.system());
        ProcessQueue poisoned = new ProcessQueue(QUEUE, 0, new ManualClock());
        failing.add("m0");
        service.submit(poisoned, pulledInto(poisoned, 0, 2));
        await().atMost(WAIT).until(() -> !pausedEvents.isEmpty());
        sendBackWorks.set(false);

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> service.resume(poisoned, true))
                .hasMessageContaining("stays paused");

        assertThat(service.paused()).hasSize(1);
        assertThat(consumed).isEmpty();
    }

    @Test
    void shouldNameTheCauseAContainerWrappedAroundTheBeansFailure() {
        Exception wrapped = new RuntimeException("system exception",
                new IllegalStateException("no such customer 42"));

        assertThat(QueuePauses.describe(wrapped)).isEqualTo("java.lang.RuntimeException: system exception; caused by "
                + "java.lang.IllegalStateException: no such customer 42");
    }

    @Test
    void shouldPauseBeforeTheDeadLetterQueueWhenBothLimitsAreReached() {
        service = orderly(pausing(true, 2, 1), this::listen, q -> true, Clock.system());
        ProcessQueue poisoned = new ProcessQueue(QUEUE, 0, new ManualClock());
        failing.add("m0");

        service.submit(poisoned, pulledInto(poisoned, 0, 1));
        await().atMost(WAIT).until(() -> !later.delays().isEmpty());
        later.runAll();

        await().atMost(WAIT).until(() -> !pausedEvents.isEmpty());
        assertThat(sentBack).isEmpty();
    }
}
