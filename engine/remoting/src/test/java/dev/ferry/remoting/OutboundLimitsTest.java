package dev.ferry.remoting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.remoting.codec.CommandCodec;
import dev.ferry.remoting.endpoint.RemotingClient;
import dev.ferry.remoting.endpoint.RemotingServer;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.testing.Frames;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What answers waiting to be written may hold in a server is bounded, whatever a client reads. */
class OutboundLimitsTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final int LARGE = 9300;
    private static final int SMALL = 9301;
    private static final int ANSWER = 1 << 20;
    private static final int HIGH_WATER_MARK = 64 * 1024;

    private final List<AutoCloseable> closeLast = new ArrayList<>();
    private final CommandCodec codec = new CommandCodec();
    private final AtomicInteger processed = new AtomicInteger();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable closeable : closeLast) {
            closeable.close();
        }
    }

    /** A server answering LARGE with {@code answerBytes} of body (a fresh array each, as an admin answer has). */
    private RemotingServer server(RemotingServerConfig.Builder config, int answerBytes) {
        return server(config, answerBytes, 4);
    }

    private RemotingServer server(RemotingServerConfig.Builder config, int answerBytes, int threads) {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        RemotingServer server = new RemotingServer(config.build());
        server.registerProcessor(LARGE, (ctx, request) -> {
            processed.incrementAndGet();
            return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).body(new byte[answerBytes]).build();
        }, pool);
        server.registerProcessor(SMALL, (ctx, request) -> RemotingCommand.responseTo(request, ResponseCode.SUCCESS)
                .build(), pool);
        server.start();
        closeLast.add(pool::shutdownNow);
        closeLast.add(0, server);
        return server;
    }

    private RemotingClient client() {
        RemotingClient client = new RemotingClient(RemotingClientConfig.builder().build());
        closeLast.add(0, client);
        return client;
    }

    /** A socket that reads little: the kernel takes few of the answers meant for it. */
    private Socket rawSocket(RemotingServer server) throws IOException {
        Socket socket = new Socket();
        socket.setReceiveBufferSize(16 * 1024);
        socket.connect(new InetSocketAddress("127.0.0.1", server.port()));
        socket.setSoTimeout((int) TIMEOUT.toMillis());
        closeLast.add(0, socket);
        return socket;
    }

    private byte[] requests(int code, int count) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 1; i <= count; i++) {
            out.writeBytes(Frames.of(RemotingCommand.request(code).opaque(i).build()));
        }
        return out.toByteArray();
    }

    /** Samples the server's unwritten answers until stopped; keeps the most seen. */
    private static final class Peak implements AutoCloseable {
        private final AtomicLong most = new AtomicLong();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread;

        Peak(RemotingServer server) {
            thread = new Thread(() -> {
                while (running.get()) {
                    most.accumulateAndGet(server.outboundBytes(), Math::max);
                    Thread.onSpinWait();
                }
            });
            thread.setDaemon(true);
            thread.start();
        }

        long most() {
            return most.get();
        }

        @Override
        public void close() {
            running.set(false);
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Test
    void shouldKeepAnswersWithinTheBudgetAndCloseAClientAskingForThousandsItNeverReads() throws Exception {
        long budget = RemotingLimits.MIN_OUTBOUND_BYTES * 4;
        RemotingServer server = server(RemotingServerConfig.builder().maxOutboundBytes(budget)
                .writeStallTimeout(Duration.ofSeconds(30)), ANSWER);
        RemotingClient client = client();
        String address = "127.0.0.1:" + server.port();
        assertThat(client.invokeSync(address, RemotingCommand.request(SMALL).build(), TIMEOUT).code())
                .isEqualTo(ResponseCode.SUCCESS);

        try (Peak peak = new Peak(server)) {
            Socket attacker = rawSocket(server);
            OutputStream out = attacker.getOutputStream();
            out.write(requests(LARGE, 5_000)); // 5,000 x 1 MiB asked for in about 150 KB
            out.flush();

            await().atMost(TIMEOUT).until(() -> server.answerRefusedConnections() == 1);
            await().atMost(TIMEOUT).until(() -> server.connectionCount() == 1);
            RemotingCommand served = client.invokeSync(address, RemotingCommand.request(SMALL).build(), TIMEOUT);

            assertThat(served.code()).isEqualTo(ResponseCode.SUCCESS);
            // the bound: the budget, plus the high-water mark for each of the two connections, plus one answer in
            // flight per processor thread
            assertThat(peak.most()).as("bytes of answers held at most")
                    .isLessThanOrEqualTo(budget + 2L * HIGH_WATER_MARK + 4L * (ANSWER + 256));
        }
        await().atMost(TIMEOUT).until(() -> server.outboundBytes() == 0 && server.inboundBytes() == 0);
    }

    @Test
    void shouldCloseAConnectionWhoseClientTakesNoAnswerForTheStallTimeoutWhileServingOthers() throws Exception {
        RemotingServer server = server(RemotingServerConfig.builder().writeStallTimeout(Duration.ofMillis(500)),
                ANSWER);
        Socket stalled = rawSocket(server);
        stalled.getOutputStream().write(requests(LARGE, 20)); // fits the budget: only the stall closes it
        await().atMost(TIMEOUT).until(() -> server.outboundBytes() > 0);

        RemotingCommand served = client().invokeSync("127.0.0.1:" + server.port(),
                RemotingCommand.request(SMALL).build(), TIMEOUT);

        assertThat(served.code()).isEqualTo(ResponseCode.SUCCESS);
        await().atMost(TIMEOUT).until(() -> server.stalledConnections() == 1);
        await().atMost(TIMEOUT).until(() -> server.connectionCount() == 1);
        await().atMost(TIMEOUT).until(() -> server.outboundBytes() == 0 && server.inboundBytes() == 0);
        assertThat(server.answerRefusedConnections()).isZero();
    }

    @Test
    void shouldStopReadingAConnectionWhoseAnswersAreNotTakenSoItCannotAskForMore() throws Exception {
        RemotingServer server = server(RemotingServerConfig.builder(), ANSWER);
        Socket silent = rawSocket(server);
        OutputStream out = silent.getOutputStream();
        out.write(requests(LARGE, 8)); // 8 MiB of answers: more than the kernel's buffers take
        out.flush();
        await().atMost(TIMEOUT).until(() -> processed.get() == 8 && server.outboundBytes() > 2L * ANSWER);
        Thread writer = new Thread(() -> { // then as many more as the socket takes
            byte[] more = requests(LARGE, 1_000);
            try {
                for (int i = 0; i < 100; i++) {
                    out.write(more);
                }
            } catch (IOException e) {
                // the socket closes at the end of the test
            }
        });
        writer.setDaemon(true);
        writer.start();

        await().during(Duration.ofMillis(500)).atMost(TIMEOUT).until(() -> processed.get() == 8);
        assertThat(writer.isAlive()).as("the client's writes pushed back").isTrue();
        assertThat(server.connectionCount()).isEqualTo(1);
    }

    @Test
    void shouldGiveASlowButReadingClientEveryAnswerInOrder() throws Exception {
        int answer = 64 * 1024;
        int count = 300;
        // far above the reader's pauses, and above a busy machine's scheduling hiccups too
        RemotingServer server = server(RemotingServerConfig.builder().writeStallTimeout(Duration.ofSeconds(2)),
                answer, 1); // one thread answers in the order asked, as a queue's pulls are
        Socket slow = rawSocket(server);
        OutputStream out = slow.getOutputStream();
        Thread writer = new Thread(() -> {
            try {
                for (int i = 1; i <= count; i++) {
                    out.write(Frames.of(RemotingCommand.request(LARGE).opaque(i).build()));
                }
                out.flush();
            } catch (IOException e) {
                // the test fails on what it reads
            }
        });
        writer.setDaemon(true);
        writer.start();

        DataInputStream in = new DataInputStream(slow.getInputStream());
        List<Integer> opaques = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] bytes = new byte[in.readInt()];
            in.readFully(bytes);
            ByteBuf frame = Unpooled.wrappedBuffer(bytes);
            RemotingCommand response = codec.decodeFrame(frame);
            assertThat(response.code()).isEqualTo(ResponseCode.SUCCESS);
            assertThat(response.bodyLength()).isEqualTo(answer);
            opaques.add(response.opaque());
            if (i % 8 == 0) {
                Thread.sleep(10); // reading slowly, not asserting on time
            }
        }

        assertThat(opaques).containsExactlyElementsOf(java.util.stream.IntStream.rangeClosed(1, count).boxed()
                .toList());
        assertThat(server.stalledConnections()).isZero();
        assertThat(server.answerRefusedConnections()).isZero();
        await().atMost(TIMEOUT).until(() -> server.outboundBytes() == 0 && server.inboundBytes() == 0);
    }

    @Test
    void shouldRefuseOutboundLimitsOutOfBoundsNamingTheKey() {
        RemotingLimits defaults = RemotingLimits.defaults();

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> defaults.toBuilder().writeBufferLowWaterMark(0)
                .build()).hasMessageStartingWith("writeBufferLowWaterMark = 0:");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> defaults.toBuilder().writeBufferLowWaterMark(1000)
                .writeBufferHighWaterMark(999).build()).hasMessageStartingWith("writeBufferHighWaterMark = 999:");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> defaults.toBuilder().maxOutboundBytes(1000).build())
                .hasMessageStartingWith("maxOutboundBytes = 1000:");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> defaults.toBuilder()
                .writeStallTimeout(Duration.ZERO).build()).hasMessageStartingWith("writeStallTimeout = PT0S:");
        assertThat(defaults.writeBufferLowWaterMark()).isEqualTo(32 * 1024);
        assertThat(defaults.writeBufferHighWaterMark()).isEqualTo(64 * 1024);
    }
}
