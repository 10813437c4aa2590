package dev.ferry.server.broker;

import static dev.ferry.server.broker.RawRequests.heartbeat;
import static dev.ferry.server.broker.RawRequests.pullBySubscription;
import static dev.ferry.server.broker.RawRequests.send;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.server.FerryServer;
import dev.ferry.server.FerryServerConfig;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pull that expects a newer subscription than the broker has waits for the heartbeat that brings it. Apache's
 * push consumer sends both at once after a rebalance (the pull on one thread, the heartbeat on another), so the
 * heartbeat may be taken between the pull's look at the subscription and its hold; the pull must not then sit out
 * its whole hold time (15 s for Apache's client), which once stalled every queue of a new consumer.
 */
class SubscriptionCatchUpTest {
    private static final long SUSPEND_MILLIS = 30_000;

    @TempDir
    Path dir;
    private FerryServer server;
    private NettyRemotingClient raw;

    @AfterEach
    void stop() {
        if (raw != null) {
            raw.shutdown();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aPullWaitingForItsSubscriptionIsAnsweredWhenTheHeartbeatLandsJustBeforeTheHold() throws Exception {
        HookedClock clock = new HookedClock();
        server = new FerryServer(FerryServerConfig.builder(dir).namesrvPort(0).brokerPort(0)
                .commitLogSegmentSize(4 << 20).build(), clock, new DefaultThreadFactory("catch-up", true)).start();
        String broker = "127.0.0.1:" + server.brokerPort();
        raw = new NettyRemotingClient(new NettyClientConfig());
        raw.start();
        assertThat(raw.invokeSync(broker, send("TopicCatchUp", "waiting", ""), 10_000).getCode())
            .isEqualTo(ResponseCode.SUCCESS);
        assertThat(raw.invokeSync(broker, heartbeat("client-1", "CG_CATCH_UP", "TopicCatchUp", "TAG", "*", 1),
            10_000).getCode()).isEqualTo(ResponseCode.SUCCESS);
        // the newer heartbeat is taken right after the pull saw version 1 and before it holds itself
        clock.onNextReadByPull(() -> {
            try {
                raw.invokeSync(broker, heartbeat("client-1", "CG_CATCH_UP", "TopicCatchUp", "TAG", "*", 2), 10_000);
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

    /** The system clock, which runs a hook once, the first time {@code PullMessageProcessor.pull} reads it. */
    private static final class HookedClock extends Clock {
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
            return System.currentTimeMillis();
        }

        /** Whether {@code PullMessageProcessor.pull} reads the clock (the broker may hand it on wrapped). */
        private static boolean readByPull() {
            return STACK.walk(frames -> frames.skip(1).dropWhile(f -> f.getMethodName().equals("millis")).findFirst()
                .map(f -> f.getClassName().equals(PullMessageProcessor.class.getName())
                    && f.getMethodName().equals("pull"))
                .orElse(false));
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis());
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
