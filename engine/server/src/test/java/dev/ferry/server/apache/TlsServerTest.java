package dev.ferry.server.apache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ferry.remoting.testing.TestCertificates;
import dev.ferry.server.FerryServerConfig;
import dev.ferry.server.FerryServerProperties;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ferry-server with TLS from its config keys, against Apache RocketMQ 5.3.3's client ({@code setUseTLS}); the broker
 * registers with its name server over TLS too, or nothing would route.
 */
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
