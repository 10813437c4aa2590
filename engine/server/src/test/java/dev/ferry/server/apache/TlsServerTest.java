package dev.ferry.server.apache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ferry.remoting.RemotingClientConfig;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RemotingException;
import dev.ferry.remoting.TlsConfig;
import dev.ferry.remoting.endpoint.RemotingClient;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.header.GetRouteInfoRequestHeader;
import dev.ferry.remoting.testing.TestCertificates;
import dev.ferry.server.FerryServerConfig;
import dev.ferry.server.FerryServerProperties;
import dev.ferry.server.cli.AdminCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * ferry-server with TLS from its config keys, against Apache RocketMQ 5.3.3's client ({@code setUseTLS}); the broker
 * registers with its name server over TLS too, or nothing would route.
 */
@Tag("integration")
class TlsServerTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    static Path dir;
    private static TestCertificates certificates;

    @BeforeAll
    static void makeCertificate() throws Exception {
        certificates = TestCertificates.create(dir, "ferry-server");
    }

    private static FerryServerConfig config(String mode, String store) {
        Properties properties = new Properties();
        properties.setProperty("tlsMode", mode);
        properties.setProperty("tlsCertPath", certificates.certificate().toString());
        properties.setProperty("tlsKeyPath", certificates.privateKey().toString());
        return FerryServerProperties.apply(FerryServerFixture.small(dir.resolve(store)), properties).build();
    }

    @Test
    void enforcingServesTlsClientsAndRefusesPlainOnes() throws Exception {
        try (FerryServerFixture ferry = new FerryServerFixture(config("enforcing", "enforcing"));
             ApacheClients clients = new ApacheClients(ferry.nameServer())) {
            DefaultMQProducer tls = new DefaultMQProducer("tls-producer");
            tls.setUseTLS(true);
            clients.started(tls);
            assertThat(tls.send(message("over-tls")).getSendStatus()).isEqualTo(SendStatus.SEND_OK);
            assertThat(receive(clients, ferry, "tls-consumer", true)).contains("over-tls");

            DefaultMQProducer plain = new DefaultMQProducer("plain-producer");
            plain.setSendMsgTimeout(2000);
            clients.started(plain);
            assertThatThrownBy(() -> plain.send(message("in-clear"))).isInstanceOf(Exception.class);
            assertThat(ferry.server().broker().refusedRequests()).isZero();
        }
    }

    @Test
    void permissiveServesTlsAndPlainClients() throws Exception {
        try (FerryServerFixture ferry = new FerryServerFixture(config("permissive", "permissive"));
             ApacheClients clients = new ApacheClients(ferry.nameServer())) {
            DefaultMQProducer tls = new DefaultMQProducer("tls-producer");
            tls.setUseTLS(true);
            clients.started(tls);
            DefaultMQProducer plain = clients.producer("plain-producer");
            assertThat(tls.send(message("over-tls")).getSendStatus()).isEqualTo(SendStatus.SEND_OK);
            assertThat(plain.send(message("in-clear")).getSendStatus()).isEqualTo(SendStatus.SEND_OK);
            assertThat(receive(clients, ferry, "plain-consumer", false)).contains("over-tls", "in-clear");
        }
    }

    @Test
    void mutualTlsServesOnlyClientsPresentingATrustedCertificate() throws Exception {
        TestCertificates client = TestCertificates.create(dir, "ferry-client");
        FerryServerConfig config = mutualTls(client, "mutual");
        RemotingCommand route = RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC,
                new GetRouteInfoRequestHeader("TBW102", null)).build();
        try (FerryServerFixture ferry = new FerryServerFixture(config);
             RemotingClient presenting = new RemotingClient(RemotingClientConfig.builder()
                     .tls(TlsConfig.client(certificates.certificate()).presenting(client.certificate(),
                             client.privateKey())).build());
             RemotingClient anonymous = new RemotingClient(RemotingClientConfig.builder()
                     .tls(TlsConfig.client(certificates.certificate())).build())) {
            // the broker registered over mutual TLS, so the route is there
            await().atMost(TIMEOUT).ignoreExceptions().until(() -> presenting.invokeSync(ferry.nameServer(), route,
                    Duration.ofSeconds(3)).code() == ResponseCode.SUCCESS);
            assertThatThrownBy(() -> anonymous.invokeSync(ferry.nameServer(), route, Duration.ofSeconds(3)))
                    .isInstanceOf(RemotingException.class);
        }
    }

    /** What docs/security.md shows: ferry-server admin reaches a server that takes mutual TLS only. */
    @Test
    void adminCommandsConnectWithTlsPresentingTheirCertificateWhereTheServerRequiresOne() throws Exception {
        TestCertificates client = TestCertificates.create(dir, "ferry-admin");
        FerryServerConfig config = mutualTls(client, "admin-tls");
        try (FerryServerFixture ferry = new FerryServerFixture(config)) {
            String[] tls = {"--tls-trust-cert-path", certificates.certificate().toString(), "--tls-cert-path",
                    client.certificate().toString(), "--tls-key-path", client.privateKey().toString()};
            await().atMost(TIMEOUT).until(() -> admin(ferry, tls).exit() == 0); // once the broker registered
            String[] plain = {};
            String[] halfPair = {"--tls-cert-path", client.certificate().toString()};

            assertThat(admin(ferry, tls).out()).contains("bad requests refused");
            AdminRun refused = admin(ferry, plain);
            assertThat(refused.exit()).isEqualTo(1);
            assertThat(refused.err().lines()).hasSize(1);
            AdminRun unusable = admin(ferry, halfPair);
            assertThat(unusable.exit()).isEqualTo(2);
            assertThat(unusable.err().strip()).isEqualTo("--tls-cert-path and --tls-key-path go together");
        }
    }

    private record AdminRun(int exit, String out, String err) {
    }

    private static AdminRun admin(FerryServerFixture ferry, String... tls) {
        List<String> args = new ArrayList<>(List.of("--namesrv", ferry.nameServer(), "health"));
        args.addAll(List.of(tls));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = new CommandLine(new AdminCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
                .execute(args.toArray(String[]::new));
        return new AdminRun(exit, out.toString(), err.toString());
    }

    /** A TLS-only server requiring a certificate: {@code client}'s, or its own (its broker's, to its name server). */
    private static FerryServerConfig mutualTls(TestCertificates client, String store) throws Exception {
        Path trusted = dir.resolve("trusted-" + store + ".pem");
        Files.writeString(trusted, Files.readString(client.certificate())
                + Files.readString(certificates.certificate()));
        Properties properties = new Properties();
        properties.setProperty("tlsMode", "enforcing");
        properties.setProperty("tlsCertPath", certificates.certificate().toString());
        properties.setProperty("tlsKeyPath", certificates.privateKey().toString());
        properties.setProperty("tlsTrustCertPath", trusted.toString());
        properties.setProperty("tlsNeedClientAuth", "true");
        return FerryServerProperties.apply(FerryServerFixture.small(dir.resolve(store)), properties).build();
    }

    private static Message message(String body) {
        return new Message("secure-topic", body.getBytes(StandardCharsets.UTF_8));
    }

    private static ConcurrentLinkedQueue<String> receive(ApacheClients clients, FerryServerFixture ferry,
                                                         String group, boolean useTls) throws Exception {
        ConcurrentLinkedQueue<String> received = new ConcurrentLinkedQueue<>();
        DefaultMQPushConsumer consumer = clients.pushConsumer(group);
        consumer.setUseTLS(useTls);
        consumer.subscribe("secure-topic", "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            messages.forEach(m -> received.add(new String(m.getBody(), StandardCharsets.UTF_8)));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        clients.start(consumer);
        long expected = useTls ? 1 : 2;
        await().atMost(TIMEOUT).until(() -> received.size() >= expected);
        return received;
    }
}
