package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
        service = new ConcurrentConsumeService(config(false, 16), this::listen, offsets, sendBack, later,
                Thread::new);
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
        service = new ConcurrentConsumeService(config(false, 16), this::listen, offsets, sendBack, later,
                Thread::new);
        ProcessQueue queue = new ProcessQueue(QUEUE, 0, new ManualClock());
        failing.add("m0");
        sendBackWorks.set(false);

        service.submit(queue, pulledInto(queue, 0, 2));

        await().atMost(WAIT).until(() -> later.delays().equals(List.of(Duration.ofSeconds(5))));
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
        service = new ConcurrentConsumeService(broadcasting, this::listen, offsets, sendBack, later, Thread::new);
        ProcessQueue queue = new ProcessQueue(QUEUE, 0, new ManualClock());
        failing.add("m0");

        service.submit(queue, pulledInto(queue, 0, 2));

        await().atMost(WAIT).until(() -> offsets.memory.getOrDefault(QUEUE, -1L) == 2L);
        assertThat(sentBack).isEmpty();
        assertThat(later.delays()).isEmpty();
    }

    @Test
    void shouldConsumeInOrderRetryInPlaceThenMoveTheMessageToTheDeadLetterQueue() {
        service = new OrderlyConsumeService(config(true, 2), this::listen, offsets, sendBack, queue -> true, later,
                Clock.system(), Thread::new);
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
        service = new OrderlyConsumeService(config(true, 16), this::listen, offsets, sendBack, q -> locked.get(),
                later, Clock.system(), Thread::new);
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
        service = new OrderlyConsumeService(oneThread, message -> {
            listen(message);
            clock.advance(Duration.ofSeconds(61)); // each message takes longer than a task may keep
            if (submitted.compareAndSet(false, true)) {
                service.submit(second, secondMessages); // waits for the only thread
            }
        }, offsets, sendBack, queue -> true, later, clock, Thread::new);

        service.submit(first, pulledInto(first, 0, 3));

        await().atMost(WAIT).until(() -> consumed.size() == 4);
        assertThat(consumed).as("the second queue's turn comes after one message of the first")
                .containsExactly("m0", "other", "m1", "m2");
        assertThat(later.delays()).as("new tasks, not pauses").isEmpty();
    }
}
