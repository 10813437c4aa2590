package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.ManualClock;
import dev.ferry.remoting.RemoteChannel;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestContext;
import dev.ferry.remoting.protocol.header.PullMessageRequestHeader;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PullRequestHoldTest {
    private final ManualClock clock = new ManualClock(1_000);
    private final List<Runnable> submitted = new ArrayList<>();
    private final PullRequestHold hold = new PullRequestHold(clock, submitted::add, 3, 2);

    private static PullRequestHold.HeldPull pull(String connection, int queueId) {
        return pull(new FakeChannel(connection), queueId, 32);
    }

    private static PullRequestHold.HeldPull pull(RemoteChannel channel, int queueId, int maxMessages) {
        RequestContext context = new RequestContext() {
            @Override
            public RemoteChannel channel() {
                return channel;
            }

            @Override
            public void respond(RemotingCommand response) {
            }
        };
        PullMessageRequestHeader header = new PullMessageRequestHeader("CG", "T", queueId, 0, maxMessages, 2, 0L,
                15_000L, null, 0L, "TAG", null, null);
        return new PullRequestHold.HeldPull(context, RemotingCommand.request(11).header(header).build(), header,
                20_000);
    }

    @Test
    void shouldRetryThePullsTheRuleTakesOnTheirConnectionsOwnThreadAndTheRestOnThePullExecutor() {
        List<PullRequestHold.HeldPull> retried = new ArrayList<>();
        hold.retryWith((pull, again) -> retried.add(pull));
        hold.retryOnItsConnection(request -> Integer.parseInt(request.extField("maxMsgNums")) <= 32);
        List<Runnable> ownThread = new ArrayList<>();
        RemoteChannel withThread = new FakeChannel("c1", new ArrayList<>(), Optional.of(ownThread::add));
        PullRequestHold.HeldPull small = pull(withThread, 0, 32);
        PullRequestHold.HeldPull large = pull(withThread, 1, 64);
        PullRequestHold.HeldPull noThread = pull(new FakeChannel("c2"), 0, 32);
        assertThat(hold.hold(small)).isTrue();
        assertThat(hold.hold(large)).isTrue();
        assertThat(hold.hold(noThread)).isTrue();

        hold.onArrival("T", 0, 1);
        hold.onArrival("T", 1, 1);

        assertThat(ownThread).as("the small pull, on its connection's thread").hasSize(1);
        assertThat(submitted).as("the large one, and the one of a connection without a thread").hasSize(2);
        ownThread.forEach(Runnable::run);
        assertThat(retried).containsExactly(small);
        submitted.forEach(Runnable::run);
        assertThat(retried).containsExactly(small, noThread, large);
    }

    @Test
    void shouldRetryOnThePullExecutorWhenTheRuleCannotReadThePull() {
        hold.retryWith((pull, again) -> { });
        hold.retryOnItsConnection(request -> {
            throw new NumberFormatException("For input string: \"x\"");
        });
        List<Runnable> ownThread = new ArrayList<>();
        assertThat(hold.hold(pull(new FakeChannel("c1", new ArrayList<>(), Optional.of(ownThread::add)), 0, 32)))
                .isTrue();

        hold.onArrival("T", 0, 1);

        assertThat(ownThread).isEmpty();
        assertThat(submitted).hasSize(1);
    }

    @Test
    void shouldHoldNoMoreThanTheCapPerConnectionAndInTotalAndCountEveryRelease() {
        hold.retryWith((pull, again) -> { });
        assertThat(hold.hold(pull("c1", 0))).isTrue();
        assertThat(hold.hold(pull("c1", 1))).isTrue();
        assertThat(hold.hold(pull("c1", 2))).as("connection c1 holds its two").isFalse();
        assertThat(hold.hold(pull("c2", 0))).isTrue();
        assertThat(hold.hold(pull("c3", 0))).as("three in total").isFalse();
        assertThat(hold.size()).isEqualTo(3);

        hold.onArrival("T", 0, 1); // wakes c1's and c2's pulls of queue 0
        assertThat(submitted).hasSize(2);
        assertThat(hold.size()).isEqualTo(1);
        assertThat(hold.hold(pull("c3", 0))).isTrue();
        assertThat(hold.hold(pull("c1", 3))).isTrue();

        clock.advance(java.time.Duration.ofSeconds(30));
        hold.expire();
        assertThat(hold.size()).isZero();
    }

    @Test
    void shouldForgetAQueueOnceItsLastHeldPullLeavesWhateverEndsIt() {
        PullRequestHold roomy = new PullRequestHold(clock, submitted::add, 100_000, 100_000);
        roomy.retryWith((pull, again) -> { });
        // one connection naming ever more queues: each held, then woken, expired or retried for a new subscription
        for (int queueId = 0; queueId < 3_000; queueId++) {
            assertThat(roomy.hold(pull("c1", queueId))).isTrue();
        }
        assertThat(roomy.queues()).isEqualTo(3_000);
        for (int queueId = 0; queueId < 1_000; queueId++) {
            roomy.onArrival("T", queueId, 1);
        }
        assertThat(roomy.queues()).as("woken by arrivals").isEqualTo(2_000);
        roomy.onSubscriptionChanged("OTHER_GROUP");
        assertThat(roomy.queues()).as("another group's change leaves them").isEqualTo(2_000);
        roomy.onSubscriptionChanged("CG");
        assertThat(roomy.queues()).as("retried for their group's new subscription").isZero();

        assertThat(roomy.hold(pull("c1", 7))).isTrue();
        clock.advance(java.time.Duration.ofSeconds(30));
        roomy.expire();
        assertThat(roomy.queues()).as("expired").isZero();
        assertThat(roomy.size()).isZero();

        assertThat(roomy.hold(pull("c1", 7))).as("a queue held again").isTrue();
        roomy.onArrival("T", 7, 1);
        assertThat(submitted).hasSize(3_000 + 1 + 1);
    }
}
