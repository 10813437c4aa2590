package dev.ferry.server.apache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.server.FerryServerConfig;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.MessageSelector;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.filter.FilterAPI;
import org.apache.rocketmq.remoting.protocol.header.PullMessageRequestHeader;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Server-side filtering: SQL92 from the Apache client, and a filter type from a plugin jar in the plugin dir. */
@Tag("integration")
class FilterPluginTest {
    @TempDir
    Path dir;

    private static Message message(String topic, String tags, String key, Map<String, String> properties) {
        Message message = new Message(topic, tags, key, key.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        properties.forEach(message::putUserProperty);
        return message;
    }

    @Test
    void shouldDeliverOnlyMessagesMatchingASql92Selector() throws Exception {
        try (FerryServerFixture ferry = new FerryServerFixture(dir);
             ApacheClients clients = new ApacheClients(ferry.nameServer())) {
            DefaultMQProducer producer = clients.producer("PG_SQL");
            producer.send(message("TopicSql", "A", "cheap-red", Map.of("price", "3", "color", "red")));
            producer.send(message("TopicSql", "A", "dear-red", Map.of("price", "30", "color", "red")));
            producer.send(message("TopicSql", "B", "dear-blue", Map.of("price", "50", "color", "blue")));
            producer.send(message("TopicSql", "B", "dear-red-b", Map.of("price", "7", "color", "red")));
            producer.send(message("TopicSql", "A", "no-price", Map.of("color", "red")));

            Map<String, MessageExt> received = new ConcurrentHashMap<>();
            DefaultMQPushConsumer consumer = clients.pushConsumer("CG_SQL");
            consumer.subscribe("TopicSql", MessageSelector.bySql("price > 5 AND color = 'red'"));
            consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
                messages.forEach(m -> received.put(m.getKeys(), m));
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
            clients.start(consumer);
            producer.send(message("TopicSql", "A", "late-red", Map.of("price", "6", "color", "red")));

            await().atMost(Duration.ofSeconds(30)).until(() -> received.size() >= 3);
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5)).until(() -> received.size() == 3);
            assertThat(received.keySet()).containsExactlyInAnyOrder("dear-red", "dear-red-b", "late-red");
        }
    }

    @Test
    void shouldFilterWithACustomFilterTypeFromThePluginDirectory() throws Exception {
        try (FerryServerFixture ferry = new FerryServerFixture(withSamplePlugin());
             ApacheClients clients = new ApacheClients(ferry.nameServer())) {
            DefaultMQProducer producer = clients.producer("PG_REGEX");
            MessageQueue queue = new MessageQueue("TopicRegex", "broker-a", 0);
            for (String tag : List.of("order-paid", "order-new", "order-shipped", "invoice-paid")) {
                producer.send(new Message("TopicRegex", tag, tag, tag.getBytes()), queue);
            }
            await().atMost(Duration.ofSeconds(10)).until(() ->
                    ferry.server().broker().store().nextOffset("TopicRegex", 0) == 4); // all dispatched
            // The Apache client knows only TAG and SQL92: ask with a raw pull naming the plugin's type.
            NettyRemotingClient client = new NettyRemotingClient(new NettyClientConfig());
            client.start();
            try {
                String broker = "127.0.0.1:" + ferry.server().brokerPort();
                RemotingCommand response = client.invokeSync(broker, RemotingCommand.createRequestCommand(
                        RequestCode.PULL_MESSAGE, pull("TAG_REGEX", "order-(paid|shipped)")), 10_000);
                assertThat(response.getCode()).isEqualTo(ResponseCode.SUCCESS);
                List<String> tags = new ArrayList<>();
                for (MessageExt m : MessageDecoder.decodes(ByteBuffer.wrap(response.getBody()))) {
                    tags.add(m.getTags());
                }
                assertThat(tags).containsExactly("order-paid", "order-shipped");

                RemotingCommand unknown = client.invokeSync(broker, RemotingCommand.createRequestCommand(
                        RequestCode.PULL_MESSAGE, pull("NO_SUCH_TYPE", "x")), 10_000);
                assertThat(unknown.getCode()).isEqualTo(ResponseCode.SYSTEM_ERROR);
                assertThat(unknown.getRemark()).contains("TAG_REGEX"); // the remark lists the types it has
            } finally {
                client.shutdown();
            }
        }
    }

    /**
     * What docs/plugins.md shows: an Apache push consumer names the plugin's type in its subscription, which travels
     * in its heartbeats and pulls, since its {@code MessageSelector} offers only TAG and SQL92.
     */
    @Test
    @SuppressWarnings("deprecation") // the consumer's inner table is reached through its deprecated accessor
    void shouldFilterForAnApachePushConsumerWhoseSubscriptionNamesThePluginType() throws Exception {
        try (FerryServerFixture ferry = new FerryServerFixture(withSamplePlugin());
             ApacheClients clients = new ApacheClients(ferry.nameServer())) {
            DefaultMQProducer producer = clients.producer("PG_REGEX_PUSH");
            // sent first, so that the topic has a route when the consumer starts (it asks again only every 30 s)
            for (String tag : List.of("order-paid", "order-new", "order-shipped", "invoice-paid")) {
                producer.send(new Message("TopicRegexPush", tag, tag, tag.getBytes()));
            }
            Map<String, MessageExt> received = new ConcurrentHashMap<>();
            DefaultMQPushConsumer consumer = clients.pushConsumer("CG_REGEX_PUSH");
            consumer.getDefaultMQPushConsumerImpl().getRebalanceImpl().getSubscriptionInner().put("TopicRegexPush",
                    FilterAPI.build("TopicRegexPush", "order-(paid|shipped)", "TAG_REGEX"));
            consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
                messages.forEach(m -> received.put(m.getTags(), m));
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
            clients.start(consumer);

            await().atMost(Duration.ofSeconds(30)).until(() -> received.size() >= 2);
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5)).until(() -> received.size() == 2);
            assertThat(received.keySet()).containsExactlyInAnyOrder("order-paid", "order-shipped");
        }
    }

    private static PullMessageRequestHeader pull(String expressionType, String expression) {
        return ApacheClients.rawPull("CG_REGEX", "TopicRegex", expressionType, expression);
    }

    /** A server whose plugin directory holds the sample plugin jar. */
    private FerryServerConfig withSamplePlugin() throws IOException {
        Path plugins = Files.createDirectories(dir.resolve("plugins"));
        Path jar = sampleJar();
        Files.copy(jar, plugins.resolve(jar.getFileName()));
        return FerryServerFixture.small(dir.resolve("store")).pluginDir(plugins).build();
    }

    /** The samples/custom-strategy jar: as its module built it, else as installed in the local repository. */
    static Path sampleJar() throws IOException {
        List<Path> candidates = List.of(Path.of("..", "..", "samples", "custom-strategy", "target"),
                Path.of(System.getProperty("user.home"), ".m2", "repository", "dev", "ferry",
                        "ferry-sample-custom-strategy", "0.1.0-SNAPSHOT"));
        for (Path candidate : candidates) {
            if (!Files.isDirectory(candidate)) {
                continue;
            }
            try (DirectoryStream<Path> jars = Files.newDirectoryStream(candidate,
                    "ferry-sample-custom-strategy-*[0-9T].jar")) {
                for (Path jar : jars) {
                    return jar;
                }
            }
        }
        throw new AssertionError("no ferry-sample-custom-strategy jar in " + candidates
                + ": build it first (mvn -pl samples/custom-strategy -am install -DskipTests)");
    }
}
