package dev.ferry.remoting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ferry.remoting.codec.CommandCodec;
import dev.ferry.remoting.endpoint.RemotingClient;
import dev.ferry.remoting.endpoint.RemotingServer;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.testing.TestCertificates;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TLS from PEM files: a self-signed server certificate for 127.0.0.1 and a client certificate for mutual TLS. */
class TlsTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final int ECHO = 9001;

    @TempDir
    static Path dir;
    private static TestCertificates server;
    private static TestCertificates client;
    private static ExecutorService pool;
    private final AtomicInteger processed = new AtomicInteger();

    @BeforeAll
    static void makeCertificates() throws Exception {
        pool = Executors.newFixedThreadPool(2);
        server = TestCertificates.create(dir, "ferry-server");
        client = TestCertificates.create(dir, "ferry-client");
    }

    @AfterAll
    static void stopPool() {
        pool.shutdownNow();
    }

    @BeforeEach
    void resetCount() {
        processed.set(0);
    }

    private RemotingServer server(TlsConfig tls) {
        RemotingServer remoting = new RemotingServer(RemotingServerConfig.builder().tls(tls).build());
        remoting.registerProcessor(ECHO, (ctx, request) -> {
            processed.incrementAndGet();
            return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).body(request.body()).build();
        }, pool);
        return remoting.start();
    }

    private RemotingServer server(TlsConfig.Mode mode) {
        return server(TlsConfig.server(mode, server.certificate(), server.privateKey()));
    }

    private static RemotingClient tlsClient(TlsConfig tls) {
        return new RemotingClient(RemotingClientConfig.builder().tls(tls).build());
    }

    private static RemotingCommand echo() {
        return RemotingCommand.request(ECHO).body("secret".getBytes(StandardCharsets.UTF_8)).build();
    }

    @Test
    void servesTlsClientsThatTrustTheCertificate() {
        try (RemotingServer remoting = server(TlsConfig.Mode.ENFORCING);
             RemotingClient tls = tlsClient(TlsConfig.client(server.certificate()))) {
            RemotingCommand response = tls.invokeSync("127.0.0.1:" + remoting.port(), echo(), TIMEOUT);
            assertThat(new String(response.body(), StandardCharsets.UTF_8)).isEqualTo("secret");
        }
    }

    @Test
    void refusesPlainClientsWhenEnforcing() {
        try (RemotingServer remoting = server(TlsConfig.Mode.ENFORCING);
             RemotingClient plain = new RemotingClient(RemotingClientConfig.builder().build())) {
            assertThatThrownBy(() -> plain.invokeSync("127.0.0.1:" + remoting.port(), echo(), Duration.ofSeconds(3)))
                    .isInstanceOf(RemotingException.class);
            assertThat(processed).hasValue(0);
        }
    }

    @Test
    void processesNoRequestOfAPlainConnectionWhenEnforcing() throws Exception {
        try (RemotingServer remoting = server(TlsConfig.Mode.ENFORCING);
             Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", remoting.port()), 3000);
            socket.setSoTimeout(5000);
            ByteBuf frames = Unpooled.buffer();
            CommandCodec codec = new CommandCodec();
            for (int i = 0; i < 3; i++) {
                codec.encode(echo().withOpaque(i), frames);
            }
            byte[] bytes = new byte[frames.readableBytes()];
            frames.readBytes(bytes);
            OutputStream out = socket.getOutputStream();
            out.write(bytes);
            out.flush();
            InputStream in = socket.getInputStream();
            // the server closes the connection without an answer: end of stream (or a reset)
            int read;
            try {
                read = in.read();
            } catch (java.net.SocketException reset) {
                read = -1;
            }
            assertThat(read).isEqualTo(-1);
            assertThat(processed).hasValue(0);
            await().atMost(TIMEOUT).until(() -> remoting.malformedFrames() >= 1);
        }
    }

    @Test
    void refusesTlsClientsThatDoNotTrustTheCertificate() {
        try (RemotingServer remoting = server(TlsConfig.Mode.ENFORCING);
             RemotingClient tls = tlsClient(TlsConfig.client(null))) {
            assertThatThrownBy(() -> tls.invokeSync("127.0.0.1:" + remoting.port(), echo(), Duration.ofSeconds(3)))
                    .isInstanceOf(RemotingException.class);
            assertThat(processed).hasValue(0);
        }
    }

    @Test
    void servesBothKindsOfClientWhenPermissive() {
        try (RemotingServer remoting = server(TlsConfig.Mode.PERMISSIVE);
             RemotingClient tls = tlsClient(TlsConfig.client(server.certificate()));
             RemotingClient plain = new RemotingClient(RemotingClientConfig.builder().build())) {
            String address = "127.0.0.1:" + remoting.port();
            assertThat(tls.invokeSync(address, echo(), TIMEOUT).code()).isZero();
            assertThat(plain.invokeSync(address, echo(), TIMEOUT).code()).isZero();
        }
    }

    @Test
    void closesAConnectionThatSendsTooLittleForAPermissivePortToTellTlsFromPlainWithinTheFirstRequestTimeout()
            throws java.io.IOException {
        RemotingServer remoting = new RemotingServer(RemotingServerConfig.builder()
                .tls(TlsConfig.server(TlsConfig.Mode.PERMISSIVE, server.certificate(), server.privateKey()))
                .firstRequestTimeout(Duration.ofMillis(300)).build()).start();
        try (remoting; java.net.Socket socket = new java.net.Socket("127.0.0.1", remoting.port())) {
            socket.setSoTimeout((int) TIMEOUT.toMillis());
            socket.getOutputStream().write(new byte[] {0x16, 0x03}); // under the 5 bytes that tell TLS from plain
            assertThat(socket.getInputStream().read()).as("closed by the server").isEqualTo(-1);
        }
    }

    @Test
    void mutualTlsServesOnlyClientsPresentingATrustedCertificate() {
        TlsConfig mutual = TlsConfig.server(TlsConfig.Mode.ENFORCING, server.certificate(), server.privateKey())
                .requiringClientCertificates(client.certificate());
        try (RemotingServer remoting = server(mutual);
             RemotingClient anonymous = tlsClient(TlsConfig.client(server.certificate()));
             RemotingClient wrongCertificate = tlsClient(TlsConfig.client(server.certificate())
                     .presenting(server.certificate(), server.privateKey()));
             RemotingClient presenting = tlsClient(TlsConfig.client(server.certificate())
                     .presenting(client.certificate(), client.privateKey()))) {
            String address = "127.0.0.1:" + remoting.port();
            assertThatThrownBy(() -> anonymous.invokeSync(address, echo(), Duration.ofSeconds(3)))
                    .isInstanceOf(RemotingException.class);
            assertThatThrownBy(() -> wrongCertificate.invokeSync(address, echo(), Duration.ofSeconds(3)))
                    .isInstanceOf(RemotingException.class);
            assertThat(processed).hasValue(0);
            assertThat(presenting.invokeSync(address, echo(), TIMEOUT).code()).isZero();
        }
    }

    @Test
    void refusesHalfAPairAndUnreadableFiles() {
        assertThatThrownBy(() -> new TlsConfig(TlsConfig.Mode.ENFORCING, server.certificate(), null, null, false,
                true)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tlsKeyPath");
        assertThatThrownBy(() -> server(TlsConfig.server(TlsConfig.Mode.ENFORCING, dir.resolve("missing.pem"),
                server.privateKey()))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("tlsCertPath: cannot read " + dir.resolve("missing.pem") + " (no such file)");
        assertThatThrownBy(() -> TlsConfig.Mode.parse("strict")).hasMessageContaining("tlsMode = strict");
    }
}
