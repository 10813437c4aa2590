package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.api.MessageQueue;
import dev.ferry.format.Clock;
import dev.ferry.format.ManualClock;
import dev.ferry.spi.AllocateStrategy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Rebalancing against fakes of the routes, the brokers' answers, the offset store and the queue gate. */
class RebalanceServiceTest {
    private static final String ME = "10.0.0.1@me";
    private static final String TOPIC = "Orders";
    private static final MessageQueue Q0 = new MessageQueue(TOPIC, "broker-a", 0);
    private static final MessageQueue Q1 = new MessageQueue(TOPIC, "broker-a", 1);
    private static final MessageQueue Q2 = new MessageQueue(TOPIC, "broker-a", 2);
    private static final MessageQueue Q3 = new MessageQueue(TOPIC, "broker-a", 3);

    /** Every n-th queue to the n-th member of the sorted ids. */
    private static final AllocateStrategy ROUND_ROBIN = new AllocateStrategy() {
        @Override
        public String name() {
            return "ROUND_ROBIN";
        }

        @Override
        public List<MessageQueue> allocate(String group, String clientId, List<MessageQueue> queues,
                                           List<String> clientIds) {
            int me = clientIds.indexOf(clientId);
            List<MessageQueue> mine = new ArrayList<>();
            for (int i = 0; i < queues.size(); i++) {
                if (i % clientIds.size() == me) {
                    mine.add(queues.get(i));
                }
            }
            return mine;
        }
    };

    private final FixedRoutes routes = new FixedRoutes().topic(TOPIC, "broker-a", "127.0.0.1:10911", 4);
    private final MemoryOffsetStore offsets = new MemoryOffsetStore();
    private final FakeQueries queries = new FakeQueries();
    private final RecordingGate gate = new RecordingGate();
    private final ManualLater later = new ManualLater();
    private final AtomicInteger heartbeats = new AtomicInteger();
    private final List<ProcessQueue> added = new CopyOnWriteArrayList<>();
    private final Clock clock = new ManualClock(Instant.parse("2026-12-01T12:00:00Z"));

    private RebalanceService service(ConsumeFromWhere from) {
        PushConsumerConfig config = PushConsumerConfig.builder("CG").subscribe(TOPIC, "*").consumeFromWhere(from)
                .build();
        return new RebalanceService(ME, ConsumerSettings.of(config), ROUND_ROBIN, offsets, queries, routes,
                heartbeats::incrementAndGet, later, clock, gate, added::add);
    }

    /** The group's members and queue ends, as brokers would answer. */
    private static final class FakeQueries implements QueueQueries {
        volatile List<String> ids = List.of(ME);
        final Map<MessageQueue, Long> ends = new java.util.concurrent.ConcurrentHashMap<>();
        volatile Runnable beforeEachCall = () -> { };

        @Override
        public List<String> consumerIds(String brokerName) {
            beforeEachCall.run();
            return ids;
        }

        @Override
        public long nextOffset(MessageQueue queue) {
            beforeEachCall.run();
            return ends.getOrDefault(queue, 0L);
        }

        @Override
        public long searchOffset(MessageQueue queue, long timestampMillis) {
            beforeEachCall.run();
            return 0;
        }
    }

    /** A gate that admits everything and records what it admits and releases. */
    private static final class RecordingGate implements QueueGate {
        final List<MessageQueue> admitted = new CopyOnWriteArrayList<>();
        final List<MessageQueue> released = new CopyOnWriteArrayList<>();
        volatile Runnable onAdmit = () -> { };
        volatile Runnable beforeEachCall = () -> { };

        @Override
        public boolean admit(MessageQueue queue) {
            beforeEachCall.run();
            admitted.add(queue);
            onAdmit.run();
            return true;
        }

        @Override
        public void opened(ProcessQueue queue) {
        }

        @Override
        public void release(ProcessQueue queue, Runnable persistOffset) {
            beforeEachCall.run();
            persistOffset.run();
            released.add(queue.queue());
        }
    }

    @Test
    void shouldTakeItsShareOfTheQueuesEachAtItsCommittedOffsetOrTheQueuesEnd() {
        RebalanceService service = service(ConsumeFromWhere.LAST_OFFSET);
        queries.ids = List.of(ME, "10.0.0.2@other");
        offsets.durable.put(Q0, 5L);
        queries.ends.put(Q2, 42L);

        assertThat(service.rebalance(List.of(TOPIC))).isTrue();

        assertThat(service.queues()).containsOnlyKeys(Q0, Q2);
        assertThat(added).extracting(ProcessQueue::queue).containsExactly(Q0, Q2);
        assertThat(added).extracting(q -> q.pullPosition().offset()).containsExactly(5L, 42L);
        assertThat(offsets.memory).containsEntry(Q0, 5L).containsEntry(Q2, 42L);
    }

    @Test
    void shouldLetAQueueGoToAnotherMemberOnlyAfterDroppingItAndPersistingItsOffset() {
        RebalanceService service = service(ConsumeFromWhere.FIRST_OFFSET);
        queries.ids = List.of(ME);
        service.rebalance(List.of(TOPIC));
        ProcessQueue q1 = service.queues().get(Q1);
        offsets.update(Q1, 17, true);

        queries.ids = List.of(ME, "10.0.0.2@other");
        assertThat(service.rebalance(List.of(TOPIC))).isTrue();

        assertThat(service.queues()).containsOnlyKeys(Q0, Q2);
        assertThat(q1.isDropped()).isTrue();
        assertThat(offsets.durable).containsEntry(Q1, 17L);
        assertThat(offsets.memory).doesNotContainKey(Q1).doesNotContainKey(Q3);
        assertThat(gate.released).containsExactlyInAnyOrder(Q1, Q3);
    }

    @Test
    void shouldNeverCallABrokerTheOffsetStoreOrTheGateUnderItsLock() {
        RebalanceService service = service(ConsumeFromWhere.LAST_OFFSET);
        List<String> underLock = new CopyOnWriteArrayList<>();
        Runnable check = () -> {
            if (service.holdsLock()) {
                underLock.add(new Throwable().getStackTrace()[1].toString());
            }
        };
        routes.beforeEachCall = check;
        queries.beforeEachCall = check;
        offsets.beforeEachCall = check;
        gate.beforeEachCall = check;

        service.rebalance(List.of(TOPIC)); // adds four queues
        queries.ids = List.of(ME, "10.0.0.2@other");
        service.rebalance(List.of(TOPIC)); // releases two
        service.rebalance(List.of()); // releases the rest

        assertThat(gate.admitted).hasSize(4);
        assertThat(gate.released).hasSize(4);
        assertThat(underLock).as("calls made while holding the lock").isEmpty();
    }

    @Test
    void shouldNotStartAQueueThatStoppedBeingWantedWhileItStarted() {
        RebalanceService service = service(ConsumeFromWhere.FIRST_OFFSET);
        AtomicReference<Boolean> inner = new AtomicReference<>();
        gate.onAdmit = () -> {
            if (inner.get() == null) {
                inner.set(service.apply(TOPIC, List.of())); // another member's turn decides otherwise meanwhile
            }
        };

        service.apply(TOPIC, List.of(Q0));

        assertThat(inner.get()).isTrue();
        assertThat(service.queues()).isEmpty();
        assertThat(added).isEmpty();
        assertThat(gate.released).as("the admission it got is let go").containsExactly(Q0);
    }

    @Test
    void shouldGreetTheBrokerAndRetryWhenTheBrokerDoesNotListThisClientYet() {
        RebalanceService service = service(ConsumeFromWhere.FIRST_OFFSET);
        queries.ids = List.of("10.0.0.2@other");

        service.rebalanceRetrying(() -> List.of(TOPIC), () -> true);

        assertThat(service.queues()).isEmpty();
        assertThat(heartbeats).hasValue(1);
        assertThat(later.delays()).containsExactly(Duration.ofSeconds(1));

        queries.ids = List.of(ME, "10.0.0.2@other");
        later.runAll();

        assertThat(service.queues()).containsOnlyKeys(Q0, Q2);
        assertThat(later.delays()).isEmpty();
    }

    @Test
    void shouldTakeEveryQueueWhenBroadcasting() {
        PushConsumerConfig config = PushConsumerConfig.builder("CG").subscribe(TOPIC, "*")
                .messageModel(dev.ferry.api.MessageModel.BROADCASTING).build();
        RebalanceService service = new RebalanceService(ME, ConsumerSettings.of(config), ROUND_ROBIN, offsets,
                queries, routes, heartbeats::incrementAndGet, later, clock, gate, added::add);
        queries.ids = List.of("10.0.0.2@other"); // not even asked

        assertThat(service.rebalance(List.of(TOPIC))).isTrue();

        assertThat(service.queues()).containsOnlyKeys(Q0, Q1, Q2, Q3);
    }
}
