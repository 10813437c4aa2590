package dev.ferry.ra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.api.FerryConnection;
import dev.ferry.api.FerryConnectionFactory;
import dev.ferry.api.Message;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.ra.inbound.FerryActivationSpec;
import dev.ferry.remoting.RemotingClientConfig;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.endpoint.RemotingClient;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.header.CreateTopicRequestHeader;
import dev.ferry.server.FerryServer;
import dev.ferry.server.FerryServerConfig;
import jakarta.resource.ResourceException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two adapters in embedded mode, as two application servers would run them, the second joining the first's name
 * server as a broker of the same cluster ({@code nameServer}, {@code brokerName}): both brokers serve the topic, and
 * the beans of one group, one in each, share its queues and together get every message once.
 */
@Tag("integration")
class EmbeddedClusterTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void shouldFormOneClusterOfTwoEmbeddedEnginesWhoseBeansShareTheMessages() throws Exception {
        FerryResourceAdapter first = TestAdapters.embedded(dir.resolve("first"));
        first.setBrokerName("broker-1");
        first.setClusterName("servers");
        first.start(new FakeBootstrapContext());
        FerryResourceAdapter second = null;
        try {
            String nameServer = first.runtime().nameServerAddress();
            second = TestAdapters.embedded(dir.resolve("second"));
            second.setNameServer(nameServer);
            second.setBrokerName("broker-2");
            second.setClusterName("servers");
            second.start(new FakeBootstrapContext());
            FerryServer joined = second.runtime().embeddedEngine().orElseThrow().server();
            assertThat(joined.config().role()).isEqualTo(FerryServerConfig.Role.BROKER);
            assertThat(second.runtime().nameServerAddress()).isEqualTo(nameServer);

            String topic = TestAdapters.unique("Shared");
            for (FerryResourceAdapter adapter : List.of(first, second)) {
                createTopic(adapter.runtime().embeddedEngine().orElseThrow().server().broker().address(), topic);
            }
            String group = TestAdapters.unique("CG");
            RecordingEndpointFactory beansOfFirst = RecordingEndpointFactory.accepting();
            RecordingEndpointFactory beansOfSecond = RecordingEndpointFactory.accepting();
            FerryActivationSpec firstSpec = TestAdapters.spec(first, topic, group);
            FerryActivationSpec secondSpec = TestAdapters.spec(second, topic, group);
            first.endpointActivation(beansOfFirst, firstSpec);
            second.endpointActivation(beansOfSecond, secondSpec);
            try {
                Set<String> sent = send(TestAdapters.connectionFactory(first), topic, 40);
                await().atMost(WAIT).untilAsserted(() -> {
                    List<String> all = Stream.concat(bodies(beansOfFirst).stream(), bodies(beansOfSecond).stream())
                            .toList();
                    assertThat(all).as("every message once, over both servers' beans")
                            .containsExactlyInAnyOrderElementsOf(sent);
                });
                assertThat(bodies(beansOfFirst)).as("the first server's share").isNotEmpty();
                assertThat(bodies(beansOfSecond)).as("the second server's share").isNotEmpty();
            } finally {
                first.endpointDeactivation(beansOfFirst, firstSpec);
                second.endpointDeactivation(beansOfSecond, secondSpec);
            }
        } finally {
            if (second != null) {
                second.stop();
            }
            first.stop();
        }
    }

    private static void createTopic(String broker, String topic) {
        try (RemotingClient client = new RemotingClient(RemotingClientConfig.builder().build())) {
            RemotingCommand answer = client.invokeSync(broker, RemotingCommand.request(
                    RequestCode.UPDATE_AND_CREATE_TOPIC, new CreateTopicRequestHeader(topic, "TBW102", 4, 4, 6,
                            "SINGLE_TAG", 0, false, "", false)).build(), Duration.ofSeconds(5));
            assertThat(answer.code()).as(answer.remark()).isEqualTo(ResponseCode.SUCCESS);
        }
    }

    /** Sends {@code count} messages until each broker took some; returns their bodies. */
    private static Set<String> send(FerryConnectionFactory factory, String topic, int count) throws ResourceException {
        Set<String> sent = new HashSet<>();
        Set<String> brokers = new HashSet<>();
        try (FerryConnection connection = factory.getConnection()) {
            await().atMost(WAIT).until(() -> {
                String body = "m-" + sent.size();
                brokers.add(connection.send(Message.builder(topic).body(body.getBytes(StandardCharsets.UTF_8))
                        .build()).messageQueue().brokerName());
                sent.add(body);
                return sent.size() >= count && brokers.size() == 2;
            });
        }
        return sent;
    }

    private static List<String> bodies(RecordingEndpointFactory beans) {
        return beans.received().stream().map(ReceivedMessage::body)
                .map(body -> new String(body, StandardCharsets.UTF_8)).toList();
    }
}
