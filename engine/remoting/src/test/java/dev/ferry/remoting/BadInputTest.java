package dev.ferry.remoting;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.remoting.endpoint.RemotingClient;
import dev.ferry.remoting.endpoint.RemotingServer;
import dev.ferry.remoting.protocol.ResponseCode;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Raw bytes that are not valid frames close their own connection and nothing else. */
class BadInputTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final int ECHO = 9001;
    private static final int MAX_FRAME = 64 * 1024;

    private static ExecutorService pool;
    private static RemotingServer server;
    private static RemotingClient client;

    @BeforeAll
    static void start() {
        pool = Executors.newFixedThreadPool(2);
        server = new RemotingServer(RemotingServerConfig.builder().maxFrameLength(MAX_FRAME).build());
        server.registerProcessor(ECHO, (ctx, request) -> RemotingCommand.responseTo(request, ResponseCode.SUCCESS)
                .body(request.body()).build(), pool);
        server.start();
        client = new RemotingClient(RemotingClientConfig.builder().build());
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
        pool.shutdownNow();
    }

    private static String address() {
        return "127.0.0.1:" + server.port();
    }

    private static void assertServerStillAnswers() {
        RemotingCommand response = client.invokeSync(address(),
                RemotingCommand.request(ECHO).body("ok".getBytes(StandardCharsets.UTF_8)).build(), TIMEOUT);
        assertThat(new String(response.body(), StandardCharsets.UTF_8)).isEqualTo("ok");
    }

    /** Sends raw bytes and reports whether the server closed the connection within the timeout. */
    private static boolean serverCloses(byte[] bytes) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout((int) TIMEOUT.toMillis());
            socket.getOutputStream().write(bytes);
            socket.getOutputStream().flush();
            InputStream in = socket.getInputStream();
            byte[] sink = new byte[4096];
            try {
                while (in.read(sink) >= 0) {
                    // drain whatever the server answered before it closed
                }
                return true;
            } catch (SocketTimeoutException e) {
                return false;
            } catch (IOException e) {
                return true; // reset by the server
            }
        }
    }

    private static byte[] frame(int totalLength, int headerWord, byte[] rest) {
        return ByteBuffer.allocate(8 + rest.length).putInt(totalLength).putInt(headerWord).put(rest).array();
    }

    @Test
    void shouldCloseConnectionSendingFrameLongerThanMaximum() throws IOException {
        assertServerStillAnswers(); // the shared client connection exists before the bad one
        assertThat(serverCloses(frame(MAX_FRAME + 1, 2, new byte[] {'{', '}'}))).isTrue();
        assertServerStillAnswers();
    }

    @Test
    void shouldCloseConnectionSendingNegativeLength() throws IOException {
        assertThat(serverCloses(frame(-5, 2, new byte[] {'{', '}'}))).isTrue();
        assertServerStillAnswers();
    }

    @Test
    void shouldCloseConnectionSendingHeaderLongerThanFrame() throws IOException {
        assertThat(serverCloses(frame(6, 1000, new byte[] {'{', '}'}))).isTrue();
        assertServerStillAnswers();
    }

    @Test
    void shouldCloseConnectionSendingFrameShorterThanItsHeaderWord() throws IOException {
        assertThat(serverCloses(ByteBuffer.allocate(6).putInt(2).putShort((short) 0).array())).isTrue();
        assertServerStillAnswers();
    }

    @Test
    void shouldCloseConnectionSendingUnknownSerializationType() throws IOException {
        assertThat(serverCloses(frame(6, (9 << 24) | 2, new byte[] {'{', '}'}))).isTrue();
        assertServerStillAnswers();
    }

    @Test
    void shouldCloseConnectionSendingMalformedJsonAndCountIt() throws IOException {
        long before = server.malformedFrames();
        byte[] json = "{\"code\":9001,\"extFields\":{".getBytes(StandardCharsets.US_ASCII);
        assertThat(serverCloses(frame(4 + json.length, json.length, json))).isTrue();
        assertThat(server.malformedFrames()).isEqualTo(before + 1);
        assertServerStillAnswers();
    }

    @Test
    void shouldKeepServingAfterThousandsOfRandomAndTruncatedFrames() throws IOException {
        Random random = new Random(20261130L);
        byte[] valid = validFrame();
        for (int i = 0; i < 2000; i++) {
            byte[] bytes;
            switch (i % 4) {
                case 0 -> { // pure noise
                    bytes = new byte[1 + random.nextInt(200)];
                    random.nextBytes(bytes);
                }
                case 1 -> { // a valid frame cut short, then the socket closes
                    bytes = java.util.Arrays.copyOf(valid, random.nextInt(valid.length));
                }
                case 2 -> { // a valid frame with one byte flipped
                    bytes = valid.clone();
                    bytes[random.nextInt(bytes.length)] ^= (byte) (1 + random.nextInt(255));
                }
                default -> { // a plausible length with a random header word and garbage
                    byte[] rest = new byte[random.nextInt(64)];
                    random.nextBytes(rest);
                    bytes = frame(4 + rest.length, random.nextInt(), rest);
                }
            }
            try (Socket socket = new Socket("127.0.0.1", server.port())) {
                socket.setSoLinger(true, 0);
                new DataOutputStream(socket.getOutputStream()).write(bytes);
            } catch (IOException e) {
                // the server may close first; that is its right
            }
        }
        assertServerStillAnswers();
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout((int) TIMEOUT.toMillis());
            socket.getOutputStream().write(valid);
            byte[] header = socket.getInputStream().readNBytes(4);
            assertThat(ByteBuffer.wrap(header).getInt()).isPositive();
        }
    }

    private static byte[] validFrame() {
        io.netty.buffer.ByteBuf buf = io.netty.buffer.Unpooled.buffer();
        try {
            new dev.ferry.remoting.codec.CommandCodec().encode(RemotingCommand.request(ECHO)
                    .body("ping".getBytes(StandardCharsets.UTF_8)).build(), buf);
            byte[] bytes = new byte[buf.readableBytes()];
            buf.readBytes(bytes);
            return bytes;
        } finally {
            buf.release();
        }
    }
}
