package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ferry.api.Message;
import dev.ferry.api.SendStatus;
import dev.ferry.client.peer.ApachePeer;
import dev.ferry.format.Clock;
import dev.ferry.remoting.Credentials;
import dev.ferry.remoting.TlsConfig;
import dev.ferry.remoting.testing.TestCertificates;
import dev.ferry.server.FerryServer;
import dev.ferry.server.FerryServerConfig;
import dev.ferry.server.auth.AuthConfig;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ferry's client with credentials and TLS: against ferry-server and against Apache RocketMQ 5.3.3, each with ACL 2.0
 * (authentication and authorization) and TLS enforcing, its requests signed as Apache's {@code AclClientRPCHook} signs
 * them.
 */
@Tag("integration")
class SecuredClusterTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String USER = ApachePeer.SUPER_USER;
    private static final String PASSWORD = ApachePeer.SUPER_PASSWORD;

    @TempDir
    static Path dir;
    private static TestCertificates certificates;

    @BeforeAll
    static void makeCertificate() throws Exception {
        certificates = TestCertificates.create(dir, "secured-cluster");
    }

    @Test
    void signsAndSpeaksTlsToFerryServer() throws Exception {
        FerryServerConfig config = FerryServerConfig.builder(dir.resolve("ferry")).namesrvPort(0).brokerPort(0)
                .commitLogSegmentSize(8 * 1024 * 1024)
                .auth(new AuthConfig(true, true, Optional.of(new Credentials(USER, PASSWORD)), Optional.empty()))
                .tls(TlsConfig.server(TlsConfig.Mode.ENFORCING, certificates.certificate(),
                        certificates.privateKey()))
                .build();
        try (FerryServer server = new FerryServer(config, Clock.system(), new DefaultThreadFactory("secured", true))
                .start()) {
            sendAndConsume(server.nameServerAddress());
            assertThat(server.broker().refusedRequests()).isZero();
            refusesAWrongSecret(server.nameServerAddress());
        }
    }

    @Test
    void signsAndSpeaksTlsToApacheRocketMq() throws Exception {
        try (ApachePeer apache = ApachePeer.startSecured(certificates.certificate(), certificates.privateKey())) {
            sendAndConsume(apache.nameServerAddress());
            refusesAWrongSecret(apache.nameServerAddress());
        }
    }

    private static FerryClient client(String nameServer, String secret) {
        return new FerryClient(ClientConfig.builder(nameServer).clientIp("127.0.0.1")
                .localOffsetDirectory(dir.resolve("offsets")).offsetPersistInterval(Duration.ofSeconds(1))
                .credentials(USER, secret).useTls(certificates.certificate()).build());
    }

    private static void sendAndConsume(String nameServer) {
        String topic = ClientTestSupport.unique("Secured");
        try (FerryClient client = client(nameServer, PASSWORD)) {
            Producer producer = client.producer(ProducerConfig.builder(ClientTestSupport.unique("PG")).build());
            for (int i = 0; i < 3; i++) {
                assertThat(producer.send(Message.builder(topic).body(("secret-" + i).getBytes(StandardCharsets.UTF_8))
                        .build()).status()).isEqualTo(SendStatus.SEND_OK);
            }
            Set<String> received = ConcurrentHashMap.newKeySet();
            PushConsumer consumer = client.pushConsumer(PushConsumerConfig.builder(ClientTestSupport.unique("CG"))
                    .subscribe(topic, "*").consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).build(),
                    message -> received.add(new String(message.body(), StandardCharsets.UTF_8)));
            try {
                await().atMost(WAIT).until(() -> received.size() == 3);
            } finally {
                consumer.close();
            }
            assertThat(received).containsExactlyInAnyOrder("secret-0", "secret-1", "secret-2");
        }
    }

    private static void refusesAWrongSecret(String nameServer) {
        try (FerryClient client = client(nameServer, "not-the-password")) {
            Producer producer = client.producer(ProducerConfig.builder(ClientTestSupport.unique("PG"))
                    .sendTimeout(Duration.ofSeconds(3)).retriesWhenSendFailed(0).build());
            assertThatThrownBy(() -> producer.send(Message.builder(ClientTestSupport.unique("Refused"))
                    .body(new byte[] {1}).build())).isInstanceOf(RuntimeException.class);
        }
    }
}
