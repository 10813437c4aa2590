package dev.ferry.server.apache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ferry.format.SystemTopics;
import dev.ferry.server.FerryServerConfig;
import dev.ferry.server.FerryServerProperties;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.commons.cli.DefaultParser;
import org.apache.commons.cli.Options;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.apache.rocketmq.tools.command.message.QueryMsgTraceByIdSubCommand;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Apache RocketMQ 5.3.3's clients with {@code enableMsgTrace} against ferry-server: the broker creates the trace topic
 * (Apache's traceTopicEnable and msgTraceTopicName), the clients' send and consume traces land in it, and Apache's
 * {@code mqadmin queryMsgTraceById} (which the Dashboard's trace view queries the same way: QUERY_MESSAGE by the
 * message id on the trace topic) shows them.
 */
@Tag("integration")
class MessageTraceTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void shouldShowApacheClientsPubAndSubTracesInMqadminWhenTheBrokerCreatesTheDefaultTraceTopic() throws Exception {
        Properties keys = new Properties();
        keys.setProperty("traceTopicEnable", "true");
        keys.setProperty("autoCreateTopics", "false");
        try (FerryServerFixture ferry = new FerryServerFixture(config(keys))) {
            String output = sendConsumeAndQuery(ferry, "TopicTraced", null, SystemTopics.TRACE_TOPIC);
            assertThat(output).contains("Pub").contains("PG_TRACED").contains("Sub").contains("CG_TRACED");
        }
    }

    @Test
    void shouldShowTracesOfACustomTraceTopicWhenClientsAndBrokerNameIt() throws Exception {
        Properties keys = new Properties();
        keys.setProperty("traceTopicEnable", "true");
        keys.setProperty("msgTraceTopicName", "TopicTraceCustom");
        keys.setProperty("autoCreateTopics", "false");
        try (FerryServerFixture ferry = new FerryServerFixture(config(keys))) {
            String output = sendConsumeAndQuery(ferry, "TopicTracedCustom", "TopicTraceCustom", "TopicTraceCustom");
            assertThat(output).contains("Pub").contains("PG_TRACED").contains("Sub").contains("CG_TRACED");
            DefaultMQAdminExt admin = ApacheClients.admin(ferry.nameServer());
            try {
                assertThat(admin.getBrokerConfig("127.0.0.1:" + ferry.server().brokerPort()))
                        .containsEntry("traceTopicEnable", "true")
                        .containsEntry("msgTraceTopicName", "TopicTraceCustom");
            } finally {
                admin.shutdown();
            }
        }
    }

    @Test
    void shouldNotCreateTheTraceTopicWhenTraceTopicEnableIsOff() throws Exception {
        try (FerryServerFixture ferry = new FerryServerFixture(config(new Properties()))) {
            DefaultMQAdminExt admin = ApacheClients.admin(ferry.nameServer());
            try {
                await().atMost(TIMEOUT).ignoreExceptions().until(() -> routed(admin, SystemTopics.AUTO_CREATE_TOPIC));
                assertThat(admin.fetchAllTopicList().getTopicList()).doesNotContain(SystemTopics.TRACE_TOPIC);
            } finally {
                admin.shutdown();
            }
        }
    }

    @Test
    void shouldRefuseABadTraceTopicEnableOrTraceTopicNameByKey() {
        Properties notBoolean = new Properties();
        notBoolean.setProperty("traceTopicEnable", "sometimes");
        assertThatThrownBy(() -> config(notBoolean)).hasMessageContaining("traceTopicEnable")
                .hasMessageContaining("sometimes");
        Properties badName = new Properties();
        badName.setProperty("traceTopicEnable", "true");
        badName.setProperty("msgTraceTopicName", "trace topic");
        assertThatThrownBy(() -> config(badName)).hasMessageContaining("msgTraceTopicName");
    }

    private FerryServerConfig config(Properties keys) {
        return FerryServerProperties.apply(FerryServerFixture.small(dir), keys).build();
    }

    /** Sends one traced message, consumes it with a traced consumer and returns what mqadmin prints of its trace. */
    private static String sendConsumeAndQuery(FerryServerFixture ferry, String topic, String clientTraceTopic,
            String queriedTraceTopic) throws Exception {
        try (ApacheClients clients = new ApacheClients(ferry.nameServer())) {
            DefaultMQAdminExt admin = ApacheClients.admin(ferry.nameServer());
            clients.onClose(admin::shutdown);
            admin.createAndUpdateTopicConfig("127.0.0.1:" + ferry.server().brokerPort(),
                    new org.apache.rocketmq.common.TopicConfig(topic, 1, 1, 6));
            await().atMost(TIMEOUT).ignoreExceptions().until(() -> routed(admin, topic)
                    && routed(admin, queriedTraceTopic));

            DefaultMQProducer producer = clients.started(new DefaultMQProducer("PG_TRACED", true, clientTraceTopic));
            SendResult sent = producer.send(new Message(topic, "TagA", "order-1",
                    "traced".getBytes(StandardCharsets.UTF_8)));

            DefaultMQPushConsumer consumer = new DefaultMQPushConsumer("CG_TRACED", true, clientTraceTopic);
            consumer.setNamesrvAddr(ferry.nameServer());
            consumer.setInstanceName("CG_TRACED" + System.nanoTime());
            consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
            consumer.setHeartbeatBrokerInterval(1000); // see ApacheClients.pushConsumer
            consumer.subscribe(topic, "*");
            AtomicBoolean consumed = new AtomicBoolean();
            consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
                consumed.set(true);
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
            clients.start(consumer);
            await().atMost(TIMEOUT).untilTrue(consumed);
            String[] output = new String[1];
            await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(500)).ignoreExceptions().until(() -> {
                output[0] = mqadmin(ferry.nameServer(), sent.getMsgId(), queriedTraceTopic);
                return output[0].contains("Pub") && output[0].contains("Sub");
            });
            return output[0];
        }
    }

    private static boolean routed(DefaultMQAdminExt admin, String topic) throws Exception {
        TopicRouteData route = admin.examineTopicRouteInfo(topic);
        return route != null && !route.getQueueDatas().isEmpty();
    }

    /** Runs {@code mqadmin queryMsgTraceById -n NAMESRV -i ID -t TOPIC} and returns what it prints. */
    static synchronized String mqadmin(String nameServer, String msgId, String traceTopic) throws Exception {
        QueryMsgTraceByIdSubCommand command = new QueryMsgTraceByIdSubCommand();
        Options options = command.buildCommandlineOptions(new Options());
        options.addOption("n", "namesrvAddr", true, "name server");
        var line = new DefaultParser().parse(options, new String[] {"-n", nameServer, "-i", msgId, "-t", traceTopic});
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = System.out;
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            command.execute(line, options, null);
        } finally {
            System.setOut(out);
        }
        return printed.toString(StandardCharsets.UTF_8);
    }
}
