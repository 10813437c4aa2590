package dev.ferry.ra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.api.FerryConnection;
import dev.ferry.api.FerryConnectionFactory;
import dev.ferry.api.Message;
import dev.ferry.ra.inbound.FerryActivationSpec;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.body.ConsumerData;
import dev.ferry.remoting.protocol.body.HeartbeatData;
import dev.ferry.remoting.protocol.body.SubscriptionData;
import dev.ferry.remoting.testing.Frames;
import dev.ferry.server.FerryServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded engine shares the application server's heap, so a client abusing its broker must neither exhaust that
 * heap nor stop the server's message-driven beans. Here a test JVM of 1 GiB plays the application server: while an
 * activation receives a steady stream of orders, clients flood the broker with over a gigabyte of 4 MiB requests,
 * heartbeats with 4 MB SQL92 expressions and million-character group names, and connections that start huge frames
 * and stall. The bytes requests hold stay within the engine's default inbound budget, every order is delivered, and
 * the heap is back where it was once the flood ends.
 */
@Tag("integration")
class AbusiveClientTest {
    private static final int FLOODERS = 6;
    private static final int FRAMES_PER_FLOODER = 50;
    private static final int BODY = 4 * 1024 * 1024;

    @TempDir
    Path storeDir;
    private FerryResourceAdapter adapter;
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final AtomicBoolean abusing = new AtomicBoolean(true);

    @AfterEach
    void stop() {
        abusing.set(false);
        pool.shutdownNow();
        if (adapter != null) {
            adapter.stop();
        }
    }

    /** A 4 MiB send to a topic no broker accepts: read whole by the broker before it can refuse it. */
    private static byte[] hugeRefusedSend() {
        return Frames.of(RemotingCommand.request(RequestCode.SEND_MESSAGE_V2).extField("a", "PG_ABUSE")
                .extField("b", "bad topic!").extField("c", "TBW102").extField("d", "4").extField("e", "0")
                .extField("f", "0").extField("g", "0").extField("h", "0").extField("i", "").body(new byte[BODY])
                .build());
    }

    private static byte[] heartbeat(String group, String expression) {
        SubscriptionData subscription = new SubscriptionData("TopicAbuse", expression, Set.of(), Set.of(), 1, "SQL92",
                false);
        HeartbeatData data = new HeartbeatData("abuser", Set.of(), Set.of(new ConsumerData(group,
                "CONSUME_PASSIVELY", "CLUSTERING", "CONSUME_FROM_LAST_OFFSET", Set.of(subscription), false)), 0, false);
        return Frames.of(RemotingCommand.request(RequestCode.HEART_BEAT).body(new BodyCodec().encode(data)).build());
    }

    /** Writes the frames over one connection, reading whatever comes back so that answers never block it. */
    private void flood(int port, byte[] frame, int times) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            InputStream in = socket.getInputStream();
            pool.submit(() -> {
                byte[] sink = new byte[8192];
                while (in.read(sink) >= 0) {
                    // answers are refusals; only their flow matters
                }
                return null;
            });
            OutputStream out = socket.getOutputStream();
            for (int i = 0; i < times && abusing.get(); i++) {
                out.write(frame);
            }
            out.flush();
        }
    }

    /**
     * Starts a frame of {@code declared} bytes, sends {@code sent} of them (from a thread of its own: the broker stops
     * reading a connection whose bytes do not fit its budget), and leaves it hanging.
     */
    private Socket stall(int port, int declared, int sent) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        OutputStream out = socket.getOutputStream();
        byte[] start = new byte[sent];
        java.nio.ByteBuffer.wrap(start).putInt(declared - 4).putInt(16);
        pool.submit(() -> {
            out.write(start);
            out.flush();
            return null;
        });
        return socket;
    }

    private static long heapAfterGc() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    @Test
    void shouldKeepTheHeapAndTheMessageDrivenBeansOfTheApplicationServer() throws Exception {
        adapter = TestAdapters.embedded(storeDir);
        adapter.start(new FakeBootstrapContext());
        FerryServer engine = adapter.runtime().embeddedEngine().orElseThrow().server();
        int port = engine.brokerPort();
        long budget = dev.ferry.remoting.RemotingLimits.defaults().maxInboundBytes();
        FerryConnectionFactory factory = TestAdapters.connectionFactory(adapter);
        String topic = TestAdapters.unique("Orders");
        try (FerryConnection connection = factory.getConnection()) {
            connection.send(Message.builder(topic).body("first".getBytes(StandardCharsets.UTF_8)).build());
        }
        RecordingEndpointFactory endpoints = RecordingEndpointFactory.accepting();
        FerryActivationSpec spec = TestAdapters.spec(adapter, topic, TestAdapters.unique("CG"));
        adapter.endpointActivation(endpoints, spec);
        await().atMost(Duration.ofSeconds(30)).until(() -> endpoints.released() == 1);
        long heapBefore = heapAfterGc();

        AtomicLong mostHeld = new AtomicLong();
        Future<?> watch = pool.submit(() -> {
            while (abusing.get()) {
                mostHeld.accumulateAndGet(engine.broker().stats().health().inboundBytes(), Math::max);
                TimeUnit.MILLISECONDS.sleep(5); // sampling a gauge, not asserting on time
            }
            return null;
        });
        // more huge frames sent all but their last bytes and left hanging than the large-frame pool holds: it stays
        // full (a frame holds what arrived of it, so these send what they hold)
        List<Socket> stalled = new ArrayList<>();
        for (int i = 0; i <= budget / (12 << 20); i++) {
            stalled.add(stall(port, 12 * 1024 * 1024, 12 * 1024 * 1024 - 1024));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> engine.broker().stats().health().inboundBytes()
                > budget - (12 << 20));
        byte[] huge = hugeRefusedSend();
        List<Future<?>> abuse = new ArrayList<>();
        for (int i = 0; i < FLOODERS; i++) {
            abuse.add(pool.submit(() -> {
                flood(port, huge, FRAMES_PER_FLOODER);
                return null;
            }));
        }
        String hugeSql = "a = '" + "x".repeat(4 * 1024 * 1024) + "'";
        abuse.add(pool.submit(() -> {
            flood(port, heartbeat("CG_SQL_ABUSE", hugeSql), 40);
            flood(port, heartbeat("g".repeat(1_000_000), "a = 1"), 5);
            return null;
        }));

        // orders keep flowing to the bean while the broker is under abuse: first with the large pool held by the
        // hanging frames, then, once those are gone, while the flood goes through
        int orders = 0;
        try (FerryConnection connection = factory.getConnection()) {
            for (int i = 0; i < 40; i++) {
                connection.send(Message.builder(topic).body(("order-" + orders).getBytes(StandardCharsets.UTF_8))
                        .build());
                orders++;
                TimeUnit.MILLISECONDS.sleep(50); // the pace of the orders, not an assertion
            }
            int sentWhileHeld = orders;
            await().atMost(Duration.ofSeconds(30)).until(() -> endpoints.released() >= sentWhileHeld + 1);
            for (Socket socket : stalled) {
                socket.close();
            }
            while (abuse.stream().anyMatch(f -> !f.isDone())) {
                connection.send(Message.builder(topic).body(("order-" + orders).getBytes(StandardCharsets.UTF_8))
                        .build());
                orders++;
                TimeUnit.MILLISECONDS.sleep(50); // the pace of the orders, not an assertion
            }
        }
        for (Future<?> f : abuse) {
            f.get(5, TimeUnit.MINUTES);
        }
        int expected = orders + 1;
        await().atMost(Duration.ofSeconds(60)).until(() -> endpoints.released() >= expected);
        abusing.set(false);
        watch.get(10, TimeUnit.SECONDS);
        adapter.endpointDeactivation(endpoints, spec);

        System.out.printf("abuse: %d orders delivered during it, at most %d bytes held by requests (budget %d), "
                + "%d requests refused%n", orders, mostHeld.get(), budget,
                engine.broker().stats().health().badRequests());
        assertThat(orders).as("orders sent during the abuse").isPositive();
        assertThat(endpoints.received()).extracting(m -> new String(m.body(), StandardCharsets.UTF_8))
                .contains("order-0", "order-" + (orders - 1));
        long smallPool = Math.max(16L << 20, budget / 4);
        assertThat(mostHeld.get()).as("bytes held by requests at any time").isPositive()
                .isLessThanOrEqualTo(budget + smallPool + 2L * huge.length);
        assertThat(engine.broker().stats().health().processorFailures()).isZero();
        assertThat(engine.broker().stats().health().filterCacheBytes()).isLessThan(64L << 20);
        await().atMost(Duration.ofSeconds(30)).until(() -> engine.broker().stats().health().inboundBytes() == 0);
        assertThat(heapAfterGc() - heapBefore).as("heap kept after the abuse").isLessThan(64L << 20);
    }
}
