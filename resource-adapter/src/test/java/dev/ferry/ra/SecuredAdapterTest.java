package dev.ferry.ra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ferry.api.BrokerException;
import dev.ferry.api.FerryConnection;
import dev.ferry.api.FerryConnectionFactory;
import dev.ferry.api.Message;
import dev.ferry.client.ClientConfig;
import dev.ferry.client.FerryClient;
import dev.ferry.client.Producer;
import dev.ferry.client.ProducerConfig;
import dev.ferry.ra.inbound.FerryActivationSpec;
import dev.ferry.ra.outbound.FerryManagedConnectionFactory;
import dev.ferry.remoting.testing.TestCertificates;
import dev.ferry.server.auth.AclResource;
import dev.ferry.server.auth.Action;
import dev.ferry.server.auth.AuthMetadata;
import dev.ferry.server.auth.AuthUser;
import dev.ferry.server.auth.Decision;
import dev.ferry.server.auth.PolicyEntry;
import dev.ferry.server.auth.PolicyType;
import dev.ferry.server.auth.UserStatus;
import dev.ferry.server.auth.UserType;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ResourceAdapterInternalException;
import jakarta.resource.spi.security.PasswordCredential;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.security.auth.Subject;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The adapter with security: the embedded engine's ACL and TLS switches as adapter properties, credentials of
 * connection factories (properties or the container's {@link Subject}) and activations, and no secret in any message.
 */
@Tag("integration")
class SecuredAdapterTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String SUPER_PASSWORD = "super-Secret-1";
    private static final String APP_PASSWORD = "app-Secret-2";

    @TempDir
    Path directory;

    private FerryResourceAdapter securedEmbedded(TestCertificates certificates) {
        FerryResourceAdapter adapter = TestAdapters.embedded(directory.resolve("store"));
        adapter.setAuthenticationEnabled(true);
        adapter.setAuthorizationEnabled(true);
        adapter.setInitAuthenticationUser("{\"username\":\"ferry-admin\",\"password\":\"" + SUPER_PASSWORD + "\"}");
        adapter.setTlsMode("enforcing");
        adapter.setTlsCertPath(certificates.certificate().toString());
        adapter.setTlsKeyPath(certificates.privateKey().toString());
        return adapter;
    }

    private static Message text(String topic, String body) {
        return Message.builder(topic).body(body.getBytes(StandardCharsets.UTF_8)).build();
    }

    @Test
    void embeddedModeTakesAuthenticationAuthorizationAndTlsAsAdapterProperties() throws Exception {
        TestCertificates certificates = TestCertificates.create(directory, "adapter");
        FakeBootstrapContext context = new FakeBootstrapContext();
        FerryResourceAdapter adapter = securedEmbedded(certificates);
        adapter.start(context);
        try {
            AuthMetadata users = adapter.runtime().embeddedEngine().orElseThrow().server().authMetadata();
            String topic = TestAdapters.unique("Secured");
            String group = TestAdapters.unique("CG");
            users.createUser(new AuthUser("app", APP_PASSWORD, UserType.NORMAL, UserStatus.ENABLE));
            users.putAcl("app", Map.of(PolicyType.CUSTOM, List.of(
                    new PolicyEntry(AclResource.parse("Topic:" + topic), Set.of(Action.PUB, Action.SUB), List.of(),
                            Decision.ALLOW),
                    new PolicyEntry(AclResource.parse("Group:" + group), Set.of(Action.SUB), List.of(),
                            Decision.ALLOW))));
            String nameServer = adapter.runtime().nameServerAddress();
            assertThat(adapter.runtime().config().toString()).contains("initAuthenticationUser")
                    .doesNotContain(SUPER_PASSWORD);

            // without credentials of its own a factory signs as the engine's user, over TLS
            FerryConnectionFactory adapterUser = TestAdapters.connectionFactory(adapter);
            try (FerryConnection connection = adapterUser.getConnection()) {
                connection.send(text(topic, "as the engine's user"));
            }

            // the container's user for the factory, through the Subject
            FerryManagedConnectionFactory managed = new FerryManagedConnectionFactory();
            managed.setResourceAdapter(adapter);
            managed.setProducerGroup(TestAdapters.unique("PG"));
            ManagedConnection asApp = managed.createManagedConnection(subject(managed, "app", APP_PASSWORD), null);
            try (FerryConnection connection = (FerryConnection) asApp.getConnection(
                    subject(managed, "app", APP_PASSWORD), null)) {
                connection.send(text(topic, "as the container's user"));
            }
            assertThat(managed.matchManagedConnections(Set.of(asApp), subject(managed, "app", APP_PASSWORD), null))
                    .isSameAs(asApp);
            assertThat(managed.matchManagedConnections(Set.of(asApp), subject(managed, "app", "other"), null))
                    .isNull();
            ManagedConnection wrong = managed.createManagedConnection(subject(managed, "app", "not-it"), null);
            try (FerryConnection connection = (FerryConnection) wrong.getConnection(null, null)) {
                assertThatThrownBy(() -> connection.send(text(topic, "refused")))
                        .hasMessageNotContaining("not-it").hasMessageNotContaining(APP_PASSWORD);
            }

            // an activation signing as the normal user receives; one with a wrong password stays idle
            RecordingEndpointFactory refused = RecordingEndpointFactory.accepting();
            FerryActivationSpec wrongSpec = TestAdapters.spec(adapter, topic, group);
            wrongSpec.setUserName("app");
            wrongSpec.setPassword("not-it");
            adapter.endpointActivation(refused, wrongSpec);
            RecordingEndpointFactory endpoints = RecordingEndpointFactory.accepting();
            FerryActivationSpec spec = TestAdapters.spec(adapter, topic, group);
            spec.setAccessKey("app");
            spec.setSecretKey(APP_PASSWORD);
            adapter.endpointActivation(endpoints, spec);
            await().atMost(WAIT).until(() -> endpoints.released() >= 2);
            assertThat(refused.created()).isZero();
            assertThat(spec.toString()).contains("app").doesNotContain(APP_PASSWORD);
            assertThat(wrongSpec.toString()).doesNotContain("not-it");

            // a client from outside: plain TCP is refused by TLS, and over TLS an unsigned send by authentication
            try (FerryClient outsider = new FerryClient(ClientConfig.builder(nameServer).clientIp("127.0.0.1")
                    .useTls(certificates.certificate()).build())) {
                Producer producer = outsider.producer(ProducerConfig.builder(TestAdapters.unique("PG"))
                        .sendTimeout(Duration.ofSeconds(3)).retriesWhenSendFailed(0).build());
                assertThatThrownBy(() -> producer.send(text(topic, "unsigned")))
                        .isInstanceOfSatisfying(BrokerException.class,
                                e -> assertThat(e.remark()).isEqualTo("username cannot be null."));
            }
            try (FerryClient plain = new FerryClient(ClientConfig.builder(nameServer).clientIp("127.0.0.1")
                    .credentials("app", APP_PASSWORD).build())) {
                Producer producer = plain.producer(ProducerConfig.builder(TestAdapters.unique("PG"))
                        .sendTimeout(Duration.ofSeconds(3)).retriesWhenSendFailed(0).build());
                assertThatThrownBy(() -> producer.send(text(topic, "in clear"))).isInstanceOf(RuntimeException.class);
            }
        } finally {
            adapter.stop();
        }
    }

    private static Subject subject(FerryManagedConnectionFactory factory, String user, String password) {
        PasswordCredential credential = new PasswordCredential(user, password.toCharArray());
        credential.setManagedConnectionFactory(factory);
        Subject subject = new Subject();
        subject.getPrivateCredentials().add(credential);
        return subject;
    }

    @Test
    void noSecretReachesAValidationMessage() {
        FerryResourceAdapter adapter = TestAdapters.embedded(directory.resolve("bad"));
        adapter.setAuthenticationEnabled(true);
        adapter.setInitAuthenticationUser("{\"username\":\"ferry-admin\",\"password\":" + SUPER_PASSWORD + "}");
        adapter.setSecretKey(APP_PASSWORD);
        assertThatThrownBy(() -> adapter.start(new FakeBootstrapContext()))
                .isInstanceOf(ResourceAdapterInternalException.class)
                .hasMessageContaining("initAuthenticationUser").hasMessageContaining("accessKey")
                .hasMessageNotContaining(SUPER_PASSWORD).hasMessageNotContaining(APP_PASSWORD);

        FerryManagedConnectionFactory managed = new FerryManagedConnectionFactory();
        managed.setAccessKey("app");
        assertThatThrownBy(() -> managed.createManagedConnection(null, null)).hasMessageContaining("secretKey");
        managed.setAccessKey(null);
        managed.setSecretKey(APP_PASSWORD);
        assertThatThrownBy(() -> managed.createManagedConnection(null, null)).hasMessageContaining("accessKey")
                .hasMessageNotContaining(APP_PASSWORD);
        assertThat(managed.toString()).doesNotContain(APP_PASSWORD);

        FerryActivationSpec spec = new FerryActivationSpec();
        spec.setTopic("orders");
        spec.setConsumerGroup("billing");
        spec.setPassword(APP_PASSWORD);
        assertThatThrownBy(spec::validate).hasMessageContaining("userName").hasMessageNotContaining(APP_PASSWORD);
        spec.setUserName("someone");
        spec.setAccessKey("another");
        spec.setSecretKey("x");
        assertThatThrownBy(spec::validate).hasMessageContaining("names another user")
                .hasMessageNotContaining(APP_PASSWORD);
    }
}
