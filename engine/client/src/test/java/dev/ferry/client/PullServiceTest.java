package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.api.MessageQueue;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.format.ManualClock;
import dev.ferry.format.PullFlags;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.header.PullMessageRequestHeader;
import dev.ferry.remoting.protocol.header.PullMessageResponseHeader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/** The pull loop against a scripted broker: what it asks for, what it hands over, how it waits. */
class PullServiceTest {
    private static final MessageQueue QUEUE = new MessageQueue("Orders", "broker-a", 1);
    private static final String BROKER = "127.0.0.1:10911";

    private final FixedRoutes routes = new FixedRoutes().topic("Orders", "broker-a", BROKER, 4);
    private final MemoryOffsetStore offsets = new MemoryOffsetStore();
    private final ManualLater later = new ManualLater();
    private final AtomicInteger heartbeats = new AtomicInteger();
    private final List<List<ReceivedMessage>> handedOver = new CopyOnWriteArrayList<>();
    private final AtomicBoolean full = new AtomicBoolean();
    private final PushConsumerConfig config = PushConsumerConfig.builder("CG").subscribe("Orders", "TagA")
            .flowControlPause(Duration.ofMillis(50)).pullErrorPause(Duration.ofSeconds(3)).build();

    private PullService service(BiFunction<String, RemotingCommand, RemotingCommand> broker, FakeBrokerCalls[] out) {
        FakeBrokerCalls calls = new FakeBrokerCalls(broker);
        out[0] = calls;
        Map<String, SubscriptionFilter> filters = new ConcurrentHashMap<>();
        filters.put("Orders", new SubscriptionFilter(Subscription.tags("Orders", "TagA"), 7L));
        return new PullService(ConsumerSettings.of(config), filters, offsets, new PullService.Sink() {
            @Override
            public boolean mayPull(ProcessQueue queue) {
                return !full.get();
            }

            @Override
            public void pulled(ProcessQueue queue, List<ReceivedMessage> messages) {
                handedOver.add(messages);
            }
        }, calls, routes, new MessageDecoder(1 << 20), later, heartbeats::incrementAndGet);
    }

    private static RemotingCommand answer(RemotingCommand request, int code, long next, byte[] body) {
        return RemotingCommand.responseTo(request, code)
                .header(new PullMessageResponseHeader(0, next, 0, next, null, 0, 0, null)).body(body).build();
    }

    private static PullMessageRequestHeader pullOf(RemotingCommand request) {
        return request.header(PullMessageRequestHeader.class);
    }

    @Test
    void shouldPullOnFromTheNextOffsetAndHandOverOnlyWhatTheSubscriptionAccepts() {
        byte[] found = new Records().add("Orders", 1, 10, "a", Map.of("TAGS", "TagA"))
                .add("Orders", 1, 11, "b", Map.of("TAGS", "TagB")).add("Orders", 1, 12, "c", Map.of("TAGS", "TagA"))
                .bytes();
        AtomicInteger pulls = new AtomicInteger();
        FakeBrokerCalls[] calls = new FakeBrokerCalls[1];
        offsets.update(QUEUE, 10, false);
        PullService service = service((address, request) -> pulls.getAndIncrement() == 0
                ? answer(request, ResponseCode.SUCCESS, 13, found) : null, calls);

        service.start(new ProcessQueue(QUEUE, 10, new ManualClock()));

        List<RemotingCommand> sent = calls[0].requests(RequestCode.PULL_MESSAGE);
        assertThat(sent).hasSize(2);
        PullMessageRequestHeader first = pullOf(sent.get(0));
        assertThat(first.queueOffset()).isEqualTo(10);
        assertThat(first.commitOffset()).isEqualTo(10);
        assertThat(first.sysFlag()).isEqualTo(PullFlags.SUSPEND | PullFlags.SUBSCRIPTION | PullFlags.COMMIT_OFFSET);
        assertThat(first.subscription()).isEqualTo("TagA");
        assertThat(first.subVersion()).isEqualTo(7L);
        assertThat(pullOf(sent.get(1)).queueOffset()).as("the next pull").isEqualTo(13);
        assertThat(calls[0].sent).allMatch(s -> s.address().equals(BROKER));
        assertThat(handedOver).singleElement().satisfies(batch -> assertThat(batch)
                .extracting(ReceivedMessage::queueOffset).containsExactly(10L, 12L));
    }

    @Test
    void shouldContinueWhereTheBrokerSaysWhenTheOffsetMovedAndPersistIt() {
        AtomicInteger pulls = new AtomicInteger();
        FakeBrokerCalls[] calls = new FakeBrokerCalls[1];
        PullService service = service((address, request) -> pulls.getAndIncrement() == 0
                ? answer(request, ResponseCode.PULL_OFFSET_MOVED, 500, null) : null, calls);

        service.start(new ProcessQueue(QUEUE, 3, new ManualClock()));

        assertThat(pullOf(calls[0].requests(RequestCode.PULL_MESSAGE).get(1)).queueOffset()).isEqualTo(500);
        assertThat(offsets.durable).containsEntry(QUEUE, 500L);
        assertThat(handedOver).isEmpty();
    }

    @Test
    void shouldWaitTheErrorPauseAfterAFailureAndTheFlowControlPauseWhileTheSinkIsFull() {
        FakeBrokerCalls[] calls = new FakeBrokerCalls[1];
        PullService service = service((address, request) -> answer(request, ResponseCode.SYSTEM_BUSY, 0, null),
                calls);
        ProcessQueue queue = new ProcessQueue(QUEUE, 0, new ManualClock());

        service.start(queue);
        assertThat(later.delays()).containsExactly(Duration.ofSeconds(3));

        full.set(true);
        later.runAll();
        assertThat(later.delays()).containsExactly(Duration.ofMillis(50));
        assertThat(calls[0].requests(RequestCode.PULL_MESSAGE)).as("no pull while full").hasSize(1);

        queue.drop();
        later.runAll();
        assertThat(later.delays()).as("a dropped queue's loop ends").isEmpty();
    }

    @Test
    void shouldSendHeartbeatsWhenTheBrokerLacksTheLatestSubscription() {
        FakeBrokerCalls[] calls = new FakeBrokerCalls[1];
        PullService service = service((address, request) -> answer(request, ResponseCode.SUBSCRIPTION_NOT_LATEST,
                0, null), calls);

        service.start(new ProcessQueue(QUEUE, 0, new ManualClock()));
        List<Duration> delays = new ArrayList<>(later.delays());
        later.runAll();

        assertThat(delays).containsExactlyInAnyOrder(Duration.ZERO, Duration.ofSeconds(3));
        assertThat(heartbeats).hasValue(1);
    }

    @Test
    void shouldStopPullingOnceStopped() {
        FakeBrokerCalls[] calls = new FakeBrokerCalls[1];
        PullService service = service((address, request) -> answer(request, ResponseCode.SYSTEM_BUSY, 0, null),
                calls);
        service.start(new ProcessQueue(QUEUE, 0, new ManualClock()));

        service.stop();
        later.runAll();

        assertThat(calls[0].requests(RequestCode.PULL_MESSAGE)).hasSize(1);
    }
}
