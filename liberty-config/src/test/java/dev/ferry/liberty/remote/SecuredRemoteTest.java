package dev.ferry.liberty.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ferry.format.Clock;
import dev.ferry.liberty.support.Http;
import dev.ferry.liberty.support.OrderRoundTrip;
import dev.ferry.liberty.support.ServerLog;
import dev.ferry.liberty.support.TestApps;
import dev.ferry.remoting.Credentials;
import dev.ferry.server.FerryServer;
import dev.ferry.server.FerryServerConfig;
import dev.ferry.server.auth.AclResource;
import dev.ferry.server.auth.Action;
import dev.ferry.server.auth.AuthConfig;
import dev.ferry.server.auth.AuthUser;
import dev.ferry.server.auth.Decision;
import dev.ferry.server.auth.PolicyEntry;
import dev.ferry.server.auth.PolicyType;
import dev.ferry.server.auth.UserStatus;
import dev.ferry.server.auth.UserType;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jboss.arquillian.container.test.api.ContainerController;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.TargetsContainer;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The adapter in remote mode against a ferry-server with ACL 2.0 on (authentication and authorization), its users
 * given by Liberty's auth data: the activation spec's {@code authDataRef} for the bean, the connection factory's
 * {@code containerAuthDataRef} for sends. The adapter itself has no credentials, so every request that succeeds
 * was signed with what the server passed.
 */
@ExtendWith(ArquillianExtension.class)
class SecuredRemoteTest {
    private static final String CONTAINER = "liberty-remote";
    private static final Http HTTP = new Http(19280);
    private static final Path OVERRIDES = Path.of("target/liberty/wlp/usr/servers/ferry-remote/configDropins/overrides");
    private static final String SUPER_PASSWORD = "super-Secret-1";
    private static final String APP_PASSWORD = "orders-Secret-2";
    private static final String WRONG_PASSWORD = "wrong-Secret-3";

    @TempDir
    Path store;

    @ArquillianResource
    private ContainerController controller;

    @ArquillianResource
    private Deployer deployer;

    @Deployment(name = "order-app-secure", managed = false, testable = false)
    @TargetsContainer(CONTAINER)
    static WebArchive permitted() {
        return TestApps.orderApp("order-app-secure");
    }

    @Deployment(name = "order-app-later", managed = false, testable = false)
    @TargetsContainer(CONTAINER)
    static WebArchive permittedLater() {
        return TestApps.orderApp("order-app-later");
    }

    @Deployment(name = "order-app-wrong", managed = false, testable = false)
    @TargetsContainer(CONTAINER)
    static WebArchive wrongPassword() {
        return TestApps.orderApp("order-app-wrong");
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES) // a server start and five deployments
    void beansAndConnectionFactoriesUseTheServersAuthData() throws IOException {
        FerryServerConfig config = FerryServerConfig.builder(store).namesrvPort(0).brokerPort(0)
                .commitLogSegmentSize(8 * 1024 * 1024)
                .auth(new AuthConfig(true, true, Optional.of(new Credentials("ferry-admin", SUPER_PASSWORD)),
                        Optional.empty()))
                .build();
        try (FerryServer server = new FerryServer(config, Clock.system(), new DefaultThreadFactory("secured", true))
                .start()) {
            server.authMetadata().createUser(new AuthUser("orders-app", APP_PASSWORD, UserType.NORMAL,
                    UserStatus.ENABLE));
            server.authMetadata().putAcl("orders-app", Map.of(PolicyType.CUSTOM, List.of(
                    new PolicyEntry(AclResource.parse("Topic:orders"), Set.of(Action.PUB, Action.SUB), List.of(),
                            Decision.ALLOW),
                    new PolicyEntry(AclResource.parse("Group:order-app"), Set.of(Action.SUB), List.of(),
                            Decision.ALLOW))));
            writeOverrides(server.nameServerAddress());
            controller.start(CONTAINER);
            try {
                runScenario();
            } finally {
                controller.stop(CONTAINER);
                Files.deleteIfExists(OVERRIDES.resolve("cluster.xml"));
            }
            assertThat(server.nameServer().refusedRequests() + server.broker().refusedRequests()).isPositive();
        }
        ServerLog log = new ServerLog("ferry-remote");
        assertThat(log.linesWith("FERRY-RA-0223")).hasSize(1);
        for (String secret : List.of(SUPER_PASSWORD, APP_PASSWORD, WRONG_PASSWORD)) {
            assertThat(logsContaining(secret)).as("log files holding a password").isEmpty();
        }
    }

    private void runScenario() {
        // the permitted user: the bean receives, and the factory's sends are signed with the container's auth data
        deployer.deploy("order-app-secure");
        try {
            OrderRoundTrip.verify(HTTP, "order-app-secure");
        } finally {
            deployer.undeploy("order-app-secure");
        }

        // a wrong password: one clear line, no consumer, and the application still serves
        ServerLog log = new ServerLog("ferry-remote");
        deployer.deploy("order-app-wrong");
        JsonNode sent;
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> !log.linesWith("FERRY-RA-0223").isEmpty());
            assertThat(log.linesWith("FERRY-RA-0223")).singleElement().asString()
                    .contains("order-app-wrong").contains("orders-app").contains("check signature failed.");
            sent = HTTP.postJson("/order-app-wrong/orders?tags=late", "{\"item\":\"kept for later\"}");
            assertThat(sent.get("status").asText()).isEqualTo("SEND_OK");
            assertThat(HTTP.getJson("/order-app-wrong/orders/received")).isEmpty();
        } finally {
            deployer.undeploy("order-app-wrong");
        }

        // nothing consumed it meanwhile: a permitted bean of the same group gets it
        deployer.deploy("order-app-later");
        try {
            String msgId = sent.get("msgId").asText();
            await().atMost(Duration.ofSeconds(90)).until(() -> OrderRoundTrip.msgIds(
                    HTTP.getJson("/order-app-later/orders/received")).contains(msgId));
        } finally {
            deployer.undeploy("order-app-later");
        }
    }

    private static void writeOverrides(String nameServer) throws IOException {
        Files.createDirectories(OVERRIDES);
        Files.writeString(OVERRIDES.resolve("cluster.xml"), """
                <server>
                  <variable name="ferry.nameServer" value="%s"/>
                  <authData id="orders-user" user="orders-app" password="%s"/>
                  <authData id="wrong-user" user="orders-app" password="%s"/>
                  <connectionFactory id="orders" containerAuthDataRef="orders-user"/>
                  <activationSpec id="order-app-secure/OrderMdb" authDataRef="orders-user"/>
                  <activationSpec id="order-app-wrong/OrderMdb" authDataRef="wrong-user"/>
                  <activationSpec id="order-app-later/OrderMdb" authDataRef="orders-user"/>
                </server>
                """.formatted(nameServer, APP_PASSWORD, WRONG_PASSWORD), StandardCharsets.UTF_8);
    }

    /** The server's log files (messages, trace, FFDC) that hold {@code text}. */
    private static List<Path> logsContaining(String text) throws IOException {
        Path logs = Path.of("target/liberty/wlp/usr/servers/ferry-remote/logs");
        try (Stream<Path> files = Files.walk(logs)) {
            return files.filter(Files::isRegularFile).filter(file -> {
                try {
                    return new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1).contains(text);
                } catch (IOException e) {
                    return false;
                }
            }).toList();
        }
    }
}
