package dev.ferry.remoting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.remoting.endpoint.RemotingClient;
import dev.ferry.remoting.endpoint.RemotingServer;
import dev.ferry.remoting.protocol.BadRequestException;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.testing.Frames;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What requests may hold in a server is bounded: bytes, queued requests, connections, slow frames. */
class InboundLimitsTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final int BLOCKING = 9100;
    private static final int OTHER = 9101;
    private static final int FRAME = 200 * 1024;

    private final List<AutoCloseable> closeLast = new ArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void close() throws Exception {
        release.countDown();
        for (AutoCloseable closeable : closeLast) {
            closeable.close();
        }
    }

    private RemotingServer server(RemotingServerConfig.Builder config, ExecutorService blockingPool) {
        ExecutorService other = Executors.newSingleThreadExecutor();
        RemotingServer server = new RemotingServer(config.build());
        server.registerProcessor(BLOCKING, (ctx, request) -> {
            release.await();
            return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build();
        }, blockingPool);
        server.registerProcessor(OTHER, (ctx, request) -> RemotingCommand.responseTo(request, ResponseCode.SUCCESS)
                .build(), other);
        server.start();
        closeLast.add(blockingPool::shutdownNow);
        closeLast.add(other::shutdownNow);
        closeLast.add(0, server);
        return server;
    }

    private RemotingClient client() {
        RemotingClient client = new RemotingClient(RemotingClientConfig.builder().asyncPermits(1000).build());
        closeLast.add(0, client);
        return client;
    }

    private static RemotingCommand request(int code, int bodySize) {
        return RemotingCommand.request(code).body(new byte[bodySize]).build();
    }

    @Test
    void shouldStopReadingAConnectionWhoseRequestsHoldItsShareAndServeThemAllOnceProcessed() {
        RemotingServer server = server(RemotingServerConfig.builder().maxFrameLength(256 * 1024)
                .maxInboundBytesPerConnection(512 * 1024).maxInboundBytes(4 << 20), Executors.newFixedThreadPool(1));
        RemotingClient client = client();
        String address = "127.0.0.1:" + server.port();

        List<CompletableFuture<RemotingCommand>> answers = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            answers.add(client.invokeAsync(address, request(BLOCKING, FRAME), Duration.ofSeconds(60)));
        }

        // one request in the processor, one queued: the third frame does not fit the 512 KiB share, and what arrived
        // of it is held within the share while the connection is not read
        long twoFrames = 2L * (FRAME + frameOverhead());
        await().atMost(TIMEOUT).until(() -> server.inboundBytes() >= twoFrames - 1024);
        await().during(Duration.ofMillis(300)).atMost(TIMEOUT).until(() -> server.inboundBytes() <= 512 * 1024);
        release.countDown();

        for (CompletableFuture<RemotingCommand> answer : answers) {
            assertThat(answer.join().code()).isEqualTo(ResponseCode.SUCCESS);
        }
        await().atMost(TIMEOUT).until(() -> server.inboundBytes() == 0);
    }

    @Test
    void shouldStopReadingThePausedConnectionSoItsClientCannotPushMoreThanTheSocketBuffersHold() throws Exception {
        RemotingServer server = server(RemotingServerConfig.builder().maxFrameLength(256 * 1024)
                .maxInboundBytesPerConnection(512 * 1024).maxInboundBytes(4 << 20), Executors.newFixedThreadPool(1));
        byte[] frame = Frames.of(RemotingCommand.request(BLOCKING).body(new byte[FRAME]).build());
        AtomicLong written = new AtomicLong();
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            OutputStream out = socket.getOutputStream();
            out.write(frame);
            out.write(frame);
            out.flush();
            await().atMost(TIMEOUT).until(() -> server.inboundBytes() >= 2L * FRAME);
            // then the next frame trickles in: every read the server makes holds only part of it
            Thread writer = new Thread(() -> {
                try {
                    byte[] chunk = new byte[16 * 1024];
                    System.arraycopy(frame, 0, chunk, 0, 8);
                    for (int i = 0; i < 12_800; i++) { // 200 MB if nothing pushed back
                        out.write(chunk);
                        out.flush();
                        written.addAndGet(chunk.length);
                        if (i % 16 == 0) {
                            Thread.sleep(1); // pacing the trickle, not asserting on time
                        }
                    }
                } catch (IOException e) {
                    // the socket closes at the end of the test
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            writer.setDaemon(true);
            writer.start();
            // the writer blocks once the socket buffers are full: its count stops moving
            await().atMost(TIMEOUT).until(new java.util.concurrent.Callable<Boolean>() {
                private long last = -1;

                @Override
                public Boolean call() throws Exception {
                    long now = written.get();
                    boolean still = now == last;
                    last = now;
                    Thread.sleep(200); // sampling the writer's progress, not asserting on time
                    return still;
                }
            });
            assertThat(written.get()).as("bytes the client could push into a paused connection")
                    .isLessThan(32L << 20);
            release.countDown();
        }
    }

    /** Length prefix, header word and a JSON header of a few dozen bytes. */
    private static long frameOverhead() {
        return 512;
    }

    @Test
    void shouldHoldOnlyTheBytesThatArrivedOfHugeFramesStartedAndLeftHanging() throws Exception {
        RemotingServer server = server(RemotingServerConfig.builder().maxInboundBytes(64 << 20)
                .maxInboundBytesPerConnection(16 << 20), Executors.newFixedThreadPool(1));
        List<Socket> stalled = new ArrayList<>();
        try {
            for (int i = 0; i < 5; i++) { // 5 x 16 MiB declared: more than the 64 MiB pool
                Socket socket = new Socket("127.0.0.1", server.port());
                socket.getOutputStream().write(ByteBuffer.allocate(8).putInt((16 << 20) - 4).putInt(20).array());
                socket.getOutputStream().flush();
                stalled.add(socket);
            }
            await().atMost(TIMEOUT).until(() -> server.inboundBytes() == 5L * 8);

            RemotingClient client = client();
            RemotingCommand small = client.invokeSync("127.0.0.1:" + server.port(), request(OTHER, 1000), TIMEOUT);

            assertThat(small.code()).isEqualTo(ResponseCode.SUCCESS);
        } finally {
            for (Socket socket : stalled) {
                socket.close();
            }
        }
        await().atMost(TIMEOUT).until(() -> server.inboundBytes() == 0);
    }

    @Test
    void shouldAnswerSystemBusyAsApacheDoesWhenACodesQueueIsFullWhileOtherCodesAreServed() {
        ThreadPoolExecutor bounded = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(3));
        RemotingServer server = server(RemotingServerConfig.builder(), bounded);
        RemotingClient client = client();
        String address = "127.0.0.1:" + server.port();

        List<CompletableFuture<RemotingCommand>> held = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            held.add(client.invokeAsync(address, request(BLOCKING, 10), Duration.ofSeconds(60)));
        }
        await().atMost(TIMEOUT).until(() -> bounded.getQueue().size() == 3);

        RemotingCommand busy = client.invokeSync(address, request(BLOCKING, 10), TIMEOUT);
        RemotingCommand other = client.invokeSync(address, request(OTHER, 10), TIMEOUT);

        assertThat(busy.code()).isEqualTo(ResponseCode.SYSTEM_BUSY);
        assertThat(busy.remark()).isEqualTo(ResponseCode.OVERLOAD_REMARK)
                .isEqualTo("[OVERLOAD]system busy, start flow control for a while");
        assertThat(other.code()).isEqualTo(ResponseCode.SUCCESS);
        release.countDown();
        held.forEach(answer -> assertThat(answer.join().code()).isEqualTo(ResponseCode.SUCCESS));
    }

    @Test
    void shouldCloseAConnectionWhoseFrameDoesNotArriveInTime() throws IOException {
        RemotingServer server = server(RemotingServerConfig.builder().frameTimeout(Duration.ofMillis(300)),
                Executors.newFixedThreadPool(1));
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout((int) TIMEOUT.toMillis());
            socket.getOutputStream().write(ByteBuffer.allocate(8).putInt(1000).putInt(20).array());
            socket.getOutputStream().flush();
            assertThat(socket.getInputStream().read()).as("closed by the server").isEqualTo(-1);
        }
        await().atMost(TIMEOUT).until(() -> server.inboundBytes() == 0);
    }

    @Test
    void shouldCloseTheOldestSilentConnectionToLetANewOneInWhenTheMaximumIsOpen() throws IOException {
        RemotingServer server = server(RemotingServerConfig.builder().maxConnections(2),
                Executors.newFixedThreadPool(1));
        RemotingClient client = client();
        String address = "127.0.0.1:" + server.port();
        assertThat(client.invokeSync(address, request(OTHER, 1), TIMEOUT).code()).isEqualTo(ResponseCode.SUCCESS);
        try (Socket silent = new Socket("127.0.0.1", server.port())) {
            silent.setSoTimeout((int) TIMEOUT.toMillis());
            await().atMost(TIMEOUT).until(() -> server.connectionCount() == 2);
            try (Socket third = new Socket("127.0.0.1", server.port())) {
                assertThat(silent.getInputStream().read()).as("the silent one closed by the server").isEqualTo(-1);
                third.getOutputStream().write(Frames.of(request(OTHER, 1)));
                third.setSoTimeout((int) TIMEOUT.toMillis());
                assertThat(third.getInputStream().read()).as("the newcomer answered").isNotEqualTo(-1);
            }
        }
        assertThat(server.evictedConnections()).isEqualTo(1);
        assertThat(client.invokeSync(address, request(OTHER, 1), TIMEOUT).code()).isEqualTo(ResponseCode.SUCCESS);
    }

    @Test
    void shouldServeANewClientWhileIdleConnectionsHoldEverySlot() throws IOException {
        RemotingServer server = server(RemotingServerConfig.builder().maxConnections(200)
                .maxConnectionsPerAddress(200), Executors.newFixedThreadPool(1));
        List<Socket> idle = new ArrayList<>();
        try {
            for (int i = 0; i < 250; i++) { // more than the maximum: the newest push the oldest out
                idle.add(new Socket("127.0.0.1", server.port()));
            }
            await().atMost(TIMEOUT).until(() -> server.evictedConnections() >= 50);

            RemotingCommand answer = client().invokeSync("127.0.0.1:" + server.port(), request(OTHER, 1), TIMEOUT);

            assertThat(answer.code()).isEqualTo(ResponseCode.SUCCESS);
            // the newcomer is counted before the oldest one it pushed out has finished closing
            await().atMost(TIMEOUT).until(() -> server.connectionCount() <= 200);
        } finally {
            for (Socket socket : idle) {
                socket.close();
            }
        }
    }

    @Test
    void shouldRefuseAnAddressBeyondItsShareOfBusyConnectionsAndServeOtherAddresses() throws IOException {
        RemotingServer server = server(RemotingServerConfig.builder().maxConnectionsPerAddress(3),
                Executors.newFixedThreadPool(1));
        InetAddress attacker = InetAddress.getByName("127.0.0.2");
        List<Socket> busy = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                Socket socket = new Socket("127.0.0.1", server.port(), attacker, 0);
                socket.setSoTimeout((int) TIMEOUT.toMillis());
                socket.getOutputStream().write(Frames.of(request(OTHER, 1)));
                assertThat(socket.getInputStream().read()).as("answered").isNotEqualTo(-1);
                busy.add(socket);
            }
            try (Socket fourth = new Socket("127.0.0.1", server.port(), attacker, 0)) {
                fourth.setSoTimeout((int) TIMEOUT.toMillis());
                assertThat(fourth.getInputStream().read()).as("refused by the server").isEqualTo(-1);
            }

            RemotingCommand answer = client().invokeSync("127.0.0.1:" + server.port(), request(OTHER, 1), TIMEOUT);

            assertThat(answer.code()).isEqualTo(ResponseCode.SUCCESS);
            assertThat(server.refusedConnections()).isEqualTo(1);
        } finally {
            for (Socket socket : busy) {
                socket.close();
            }
        }
    }

    @Test
    void shouldCloseAConnectionThatSendsNoWholeRequestInTime() throws IOException {
        RemotingServer server = server(RemotingServerConfig.builder().firstRequestTimeout(Duration.ofMillis(300)),
                Executors.newFixedThreadPool(1));
        try (Socket silent = new Socket("127.0.0.1", server.port());
             Socket partial = new Socket("127.0.0.1", server.port())) {
            silent.setSoTimeout((int) TIMEOUT.toMillis());
            partial.setSoTimeout((int) TIMEOUT.toMillis());
            partial.getOutputStream().write(new byte[] {0, 0}); // not even a length prefix

            assertThat(silent.getInputStream().read()).as("closed by the server").isEqualTo(-1);
            assertThat(partial.getInputStream().read()).as("closed by the server").isEqualTo(-1);
        }
        RemotingCommand answer = client().invokeSync("127.0.0.1:" + server.port(), request(OTHER, 1), TIMEOUT);
        assertThat(answer.code()).isEqualTo(ResponseCode.SUCCESS);
    }

    @Test
    void shouldServeRealClientsWhileHundredsOfConnectionsSendOnlyTheStartOfLargeFrames() throws Exception {
        RemotingServer server = server(RemotingServerConfig.builder().maxInboundBytes(64 << 20), // small pool: 16 MiB
                Executors.newFixedThreadPool(1));
        List<Socket> stalled = new ArrayList<>();
        try {
            for (int i = 0; i < 400; i++) { // 400 x 64 KiB announced: more than the small frames' pool
                Socket socket = new Socket("127.0.0.1", server.port());
                socket.getOutputStream().write(ByteBuffer.allocate(9).putInt(64 * 1024 - 4).putInt(20).array());
                stalled.add(socket);
            }
            await().atMost(TIMEOUT).until(() -> server.inboundBytes() == 400L * 9);

            RemotingClient client = client();
            for (int i = 0; i < 20; i++) {
                RemotingCommand answer = client.invokeSync("127.0.0.1:" + server.port(), request(OTHER, 4096),
                        Duration.ofSeconds(3));
                assertThat(answer.code()).isEqualTo(ResponseCode.SUCCESS);
            }
        } finally {
            for (Socket socket : stalled) {
                socket.close();
            }
        }
        await().atMost(TIMEOUT).until(() -> server.inboundBytes() == 0);
    }

    @Test
    void shouldAnswerABadRequestWithItsCodeAndCountItApartFromProcessorFailures() {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        RemotingServer server = new RemotingServer(RemotingServerConfig.builder().build());
        server.registerProcessor(9200, (ctx, request) -> {
            throw new BadRequestException(29, "topic 'a b' contains characters outside ^[%|a-zA-Z0-9_-]+$");
        }, pool);
        server.registerProcessor(9201, (ctx, request) -> {
            throw new IllegalStateException("a defect");
        }, pool);
        server.start();
        closeLast.add(pool::shutdownNow);
        closeLast.add(0, server);
        RemotingClient client = client();
        String address = "127.0.0.1:" + server.port();

        RemotingCommand bad = client.invokeSync(address, request(9200, 0), TIMEOUT);
        RemotingCommand failed = client.invokeSync(address, request(9201, 0), TIMEOUT);

        assertThat(bad.code()).isEqualTo(29);
        assertThat(bad.remark()).contains("characters outside");
        assertThat(failed.code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(failed.remark()).isEqualTo("IllegalStateException: a defect");
        assertThat(server.badRequests()).isEqualTo(1);
        assertThat(server.processorFailures()).isEqualTo(1);
    }

    @Test
    void shouldDescribeAHugeCraftedRequestInABoundedSingleLine() {
        RemotingCommand request = RemotingCommand.request(34).extField("group", "g".repeat(9_000_000))
                .extField("evil", "a\nFAKE LOG LINE").body("x".getBytes(StandardCharsets.UTF_8)).build();

        String shown = request.toString();

        assertThat(shown).hasSizeLessThan(400).doesNotContain("\n").contains("(9000000 chars)")
                .contains("a\\u000aFAKE LOG LINE");
    }
}
