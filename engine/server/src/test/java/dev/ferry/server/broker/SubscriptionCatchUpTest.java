package dev.ferry.server.broker;

import static dev.ferry.server.broker.RawRequests.heartbeat;
import static dev.ferry.server.broker.RawRequests.pullBySubscription;
import static dev.ferry.server.broker.RawRequests.send;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.Clock;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.server.FerryServer;
import dev.ferry.server.FerryServerConfig;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pull that expects a newer subscription than the broker has waits for the heartbeat that brings it, unless the
 * broker's subscription takes every message ({@code *}) and the pull's is of TAG type, which the broker serves at
 * once. Apache's push consumer sends both at once after a rebalance (the pull on one thread, the heartbeat on
 * another), so the heartbeat may be taken between the pull's look at the subscription and its hold; the pull must not
 * then sit out its whole hold time (15 s for Apache's client), which once stalled every queue of a new consumer.
 */
@Tag("integration")
class SubscriptionCatchUpTest {
    private static final long SUSPEND_MILLIS = 30_000;
    /** A message's properties that tag it {@code TagA}. */
    private static final String TAG_A = "TAGS\u0001TagA\u0002";

    @TempDir
    Path dir;
    private FerryServer server;
    @RegisterExtension
    static final ClassRawClient raw = new ClassRawClient();

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aPullWaitingForItsSubscriptionIsAnsweredWhenTheHeartbeatLandsJustBeforeTheHold() throws Exception {
        HookedClock clock = new HookedClock();
        String broker = start(clock);
        assertThat(raw.invokeSync(broker, send("TopicCatchUp", "waiting", TAG_A), 10_000).getCode())
            .isEqualTo(ResponseCode.SUCCESS);
        assertThat(raw.invokeSync(broker, heartbeat("client-1", "CG_CATCH_UP", "TopicCatchUp", "TAG", "TagA", 1),
            10_000).getCode()).isEqualTo(ResponseCode.SUCCESS);
        // the newer heartbeat is taken right after the pull saw version 1 and before it holds itself
        clock.onNextReadByPull(() -> {
            try {
                raw.invokeSync(broker, heartbeat("client-1", "CG_CATCH_UP", "TopicCatchUp", "TAG", "TagA", 2),
                    10_000);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });

        CompletableFuture<RemotingCommand> answer = new CompletableFuture<>();
        // The hook waits inside the pull for an answer on the pull's own connection, which the connection's event
        // loop cannot read while it runs the pull: the pull asks for more than the broker answers inline, so it runs
        // on the pull executor. Inline or not, the pull looks again the same way once held.
        raw.invokeAsync(broker, pullBySubscription("CG_CATCH_UP", "TopicCatchUp", SUSPEND_MILLIS, 2,
                InlinePulls.MAX_MESSAGES + 1),
            SUSPEND_MILLIS + 10_000, future -> answer.complete(future.getResponseCommand()));

        RemotingCommand pulled = answer.get(5, TimeUnit.SECONDS); // far less than the hold time
        assertThat(clock.hookRan()).isTrue();
        assertThat(pulled.getCode()).isEqualTo(ResponseCode.SUCCESS);
    }

    @Test
    void aPullExpectingANewerTagSubscriptionIsServedAtOnceByTheBrokersSubscriptionOfEveryMessage() throws Exception {
        String broker = start(Clock.system());
        assertThat(raw.invokeSync(broker, send("TopicEvery", "served", TAG_A), 10_000).getCode())
            .isEqualTo(ResponseCode.SUCCESS);
        assertThat(raw.invokeSync(broker, heartbeat("client-1", "CG_EVERY", "TopicEvery", "TAG", "*", 1), 10_000)
            .getCode()).isEqualTo(ResponseCode.SUCCESS);

        // no hold time: a pull the broker would wait on is told at once that its subscription is not latest
        for (String type : new String[] {null, "TAG"}) {
            RemotingCommand pulled = raw.invokeSync(broker, type == null
                ? pullBySubscription("CG_EVERY", "TopicEvery", 0, 2)
                : pullBySubscription("CG_EVERY", "TopicEvery", 0, 2, type), 10_000);
            assertThat(pulled.getCode()).as("expression type %s", type).isEqualTo(ResponseCode.SUCCESS);
            assertThat(MessageDecoder.decodes(ByteBuffer.wrap(pulled.getBody())))
                .extracting(message -> new String(message.getBody(), StandardCharsets.UTF_8))
                .containsExactly("served");
        }
    }

    @Test
    void aPullExpectingANewerSubscriptionOfATagListOrOfAnotherTypeIsToldItIsNotLatest() throws Exception {
        String broker = start(Clock.system());
        assertThat(raw.invokeSync(broker, send("TopicLatest", "kept", TAG_A), 10_000).getCode())
            .isEqualTo(ResponseCode.SUCCESS);
        assertThat(raw.invokeSync(broker, heartbeat("client-1", "CG_TAGS", "TopicLatest", "TAG", "TagA || TagB", 1),
            10_000).getCode()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(raw.invokeSync(broker, heartbeat("client-2", "CG_SQL", "TopicLatest", "TAG", "*", 1), 10_000)
            .getCode()).isEqualTo(ResponseCode.SUCCESS);

        // the consumer may have dropped TagB, or added TagC, which the broker's old list would filter out for good
        assertThat(raw.invokeSync(broker, pullBySubscription("CG_TAGS", "TopicLatest", 0, 2, "TAG"), 10_000)
            .getCode()).isEqualTo(ResponseCode.SUBSCRIPTION_NOT_LATEST);
        // a consumer that moved to SQL92 does not match properties itself: "*" would hand it every message
        assertThat(raw.invokeSync(broker, pullBySubscription("CG_SQL", "TopicLatest", 0, 2, "SQL92"), 10_000)
            .getCode()).isEqualTo(ResponseCode.SUBSCRIPTION_NOT_LATEST);
        // the versions the broker has are served as ever
        assertThat(raw.invokeSync(broker, pullBySubscription("CG_TAGS", "TopicLatest", 0, 1, "TAG"), 10_000)
            .getCode()).isEqualTo(ResponseCode.SUCCESS);
    }

    /** Starts the server on {@code clock}; returns the broker's address. */
    private String start(Clock clock) {
        server = new FerryServer(FerryServerConfig.builder(dir).namesrvPort(0).brokerPort(0)
                .commitLogSegmentSize(4 << 20).build(), clock, new DefaultThreadFactory("catch-up", true)).start();
        return "127.0.0.1:" + server.brokerPort();
    }

    /** The system clock, which runs a hook once, the first time {@code PullMessageProcessor.pull} reads it. */
    private static final class HookedClock implements Clock {
        private static final StackWalker STACK = StackWalker.getInstance();
        private final AtomicReference<Runnable> hook = new AtomicReference<>();
        private volatile boolean ran;

        void onNextReadByPull(Runnable value) {
            hook.set(value);
        }

        boolean hookRan() {
            return ran;
        }

        @Override
        public long millis() {
            if (hook.get() != null && readByPull()) {
                Runnable run = hook.getAndSet(null);
                if (run != null) {
                    run.run();
                    ran = true;
                }
            }
            return Clock.system().millis();
        }

        @Override
        public long nanos() {
            return Clock.system().nanos();
        }

        /** Whether {@code PullMessageProcessor.pull} reads the clock (the broker may hand it on wrapped). */
        private static boolean readByPull() {
            return STACK.walk(frames -> frames.skip(1).dropWhile(f -> f.getMethodName().equals("millis")).findFirst()
                .map(f -> f.getClassName().equals(PullMessageProcessor.class.getName())
                    && f.getMethodName().equals("pull"))
                .orElse(false));
        }

    }
}
