package dev.ferry.remoting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.remoting.protocol.ResponseCode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TLS with a self-signed certificate made by the JDK's keytool for 127.0.0.1. */
class TlsTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final int ECHO = 9001;
    private static final String PASSWORD = "changeit";

    @TempDir
    static Path dir;
    private static Path serverKeys;
    private static Path clientTrust;
    private static ExecutorService pool;

    @BeforeAll
    static void makeCertificate() throws Exception {
        pool = Executors.newFixedThreadPool(2);
        serverKeys = dir.resolve("server.p12");
        clientTrust = dir.resolve("trust.p12");
        Path cert = dir.resolve("server.cer");
        keytool("-genkeypair", "-alias", "ferry", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                "-dname", "CN=ferry-test", "-ext", "SAN=ip:127.0.0.1,dns:localhost",
                "-storetype", "PKCS12", "-keystore", serverKeys.toString(), "-storepass", PASSWORD);
        keytool("-exportcert", "-alias", "ferry", "-keystore", serverKeys.toString(), "-storepass", PASSWORD,
                "-file", cert.toString());
        keytool("-importcert", "-noprompt", "-alias", "ferry", "-file", cert.toString(), "-storetype", "PKCS12",
                "-keystore", clientTrust.toString(), "-storepass", PASSWORD);
    }

    @AfterAll
    static void stopPool() {
        pool.shutdownNow();
    }

    private static void keytool(String... args) throws IOException, InterruptedException {
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        List<String> command = new java.util.ArrayList<>(List.of(keytool.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
    }

    private static RemotingServer server(TlsConfig.Mode mode) {
        RemotingServer server = new RemotingServer(RemotingServerConfig.builder()
                .tls(TlsConfig.server(mode, serverKeys, PASSWORD)).build());
        server.registerProcessor(ECHO, (ctx, request) -> RemotingCommand.responseTo(request, ResponseCode.SUCCESS)
                .body(request.body()).build(), pool);
        return server.start();
    }

    private static RemotingCommand echo() {
        return RemotingCommand.request(ECHO).body("secret".getBytes(StandardCharsets.UTF_8)).build();
    }

    @Test
    void shouldServeTlsClientsThatTrustTheCertificate() {
        try (RemotingServer server = server(TlsConfig.Mode.ENFORCING);
             RemotingClient client = new RemotingClient(RemotingClientConfig.builder()
                     .tls(TlsConfig.client(clientTrust, PASSWORD)).build())) {
            RemotingCommand response = client.invokeSync("127.0.0.1:" + server.port(), echo(), TIMEOUT);
            assertThat(new String(response.body(), StandardCharsets.UTF_8)).isEqualTo("secret");
        }
    }

    @Test
    void shouldRefusePlainClientsWhenEnforcing() {
        try (RemotingServer server = server(TlsConfig.Mode.ENFORCING);
             RemotingClient client = new RemotingClient(RemotingClientConfig.builder().build())) {
            assertThatThrownBy(() -> client.invokeSync("127.0.0.1:" + server.port(), echo(), Duration.ofSeconds(3)))
                    .isInstanceOf(RemotingException.class);
        }
    }

    @Test
    void shouldRefuseTlsClientsThatDoNotTrustTheCertificate() {
        try (RemotingServer server = server(TlsConfig.Mode.ENFORCING);
             RemotingClient client = new RemotingClient(RemotingClientConfig.builder()
                     .tls(TlsConfig.client(null, null)).build())) {
            assertThatThrownBy(() -> client.invokeSync("127.0.0.1:" + server.port(), echo(), Duration.ofSeconds(3)))
                    .isInstanceOf(RemotingException.class);
        }
    }

    @Test
    void shouldServeBothKindsOfClientWhenPermissive() {
        try (RemotingServer server = server(TlsConfig.Mode.PERMISSIVE);
             RemotingClient tls = new RemotingClient(RemotingClientConfig.builder()
                     .tls(TlsConfig.client(clientTrust, PASSWORD)).build());
             RemotingClient plain = new RemotingClient(RemotingClientConfig.builder().build())) {
            String address = "127.0.0.1:" + server.port();
            assertThat(tls.invokeSync(address, echo(), TIMEOUT).code()).isZero();
            assertThat(plain.invokeSync(address, echo(), TIMEOUT).code()).isZero();
        }
    }
}
