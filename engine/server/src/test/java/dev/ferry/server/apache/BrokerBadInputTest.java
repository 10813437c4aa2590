package dev.ferry.server.apache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.testing.ClientShutdowns;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.MessageSelector;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.header.PullMessageRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeaderV2;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad requests get RocketMQ's response codes with remarks, and the broker keeps serving. */
@Tag("integration")
class BrokerBadInputTest {
    @TempDir
    static Path dir;
    private static FerryServerFixture ferry;
    private static NettyRemotingClient raw;
    private static DefaultMQProducer producer;
    private static String broker;

    @BeforeAll
    static void start() throws Exception {
        ferry = new FerryServerFixture(dir);
        broker = "127.0.0.1:" + ferry.server().brokerPort();
        raw = new NettyRemotingClient(new NettyClientConfig());
        raw.start();
        producer = new DefaultMQProducer("PG_BAD");
        producer.setNamesrvAddr(ferry.nameServer());
        producer.setInstanceName("bad" + System.nanoTime());
        producer.setMaxMessageSize(8 * 1024 * 1024); // let the client send what the broker must refuse
        producer.start();
        assertThat(producer.send(message("TopicOk", 10)).getSendStatus()).isEqualTo(SendStatus.SEND_OK);
    }

    @AfterAll
    static void stop() {
        ClientShutdowns.together(producer::shutdown, raw::shutdown);
        ferry.close();
    }

    private static Message message(String topic, int size) {
        byte[] body = new byte[size];
        new java.util.Random(size).nextBytes(body); // incompressible: the client compresses bodies over 4 KiB
        return new Message(topic, "T", body);
    }

    private static void assertStillServing() throws Exception {
        assertThat(producer.send(message("TopicOk", 10)).getSendStatus()).isEqualTo(SendStatus.SEND_OK);
    }

    private static SendMessageRequestHeaderV2 sendHeader(String topic) {
        SendMessageRequestHeaderV2 h = new SendMessageRequestHeaderV2();
        h.setA("PG_BAD");
        h.setB(topic);
        h.setC("TBW102");
        h.setD(4);
        h.setE(0);
        h.setF(0);
        h.setG(System.currentTimeMillis());
        h.setH(0);
        h.setI("");
        return h;
    }

    @Test
    void shouldAnswerUnknownRequestCodesWithRequestCodeNotSupported() throws Exception {
        RemotingCommand response = raw.invokeSync(broker, RemotingCommand.createRequestCommand(4242, null), 5000);
        assertThat(response.getCode()).isEqualTo(ResponseCode.REQUEST_CODE_NOT_SUPPORTED);
        assertThat(response.getRemark()).contains("4242");
        assertStillServing();
    }

    @Test
    void shouldRefuseSendsToAnInvalidTopicName() throws Exception {
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.SEND_MESSAGE_V2,
                sendHeader("bad topic!"));
        request.setBody("x".getBytes(StandardCharsets.UTF_8));
        RemotingCommand response = raw.invokeSync(broker, request, 5000);
        assertThat(response.getCode()).as("Apache's msgCheck answer").isEqualTo(ResponseCode.INVALID_PARAMETER);
        assertThat(response.getRemark()).contains("bad topic!").contains("characters");
        assertStillServing();
    }

    @Test
    void shouldRefuseBodiesOverTheMaximumWithAClearClientException() throws Exception {
        assertThatThrownBy(() -> producer.send(message("TopicOk", 5 * 1024 * 1024)))
                .isInstanceOf(MQBrokerException.class)
                .satisfies(e -> assertThat(((MQBrokerException) e).getResponseCode())
                        .isEqualTo(ResponseCode.MESSAGE_ILLEGAL))
                .hasMessageContaining("over the limit");
        assertStillServing();
    }

    @Test
    void shouldRefuseMalformedSqlSubscriptions() throws Exception {
        PullMessageRequestHeader pull = pullHeader(0);
        pull.setSysFlag(1 << 2); // subscription in the request
        pull.setExpressionType("SQL92");
        pull.setSubscription("a > ");
        RemotingCommand response = raw.invokeSync(broker, RemotingCommand.createRequestCommand(
                RequestCode.PULL_MESSAGE, pull), 5000);
        assertThat(response.getCode()).isEqualTo(ResponseCode.SUBSCRIPTION_PARSE_FAILED);
        assertThat(response.getRemark()).contains("a > ");

        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer("CG_BAD_SQL");
        consumer.setNamesrvAddr(ferry.nameServer());
        consumer.setInstanceName("badsql" + System.nanoTime());
        consumer.subscribe("TopicOk", MessageSelector.bySql("a > "));
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) ->
                ConsumeConcurrentlyStatus.CONSUME_SUCCESS);
        try {
            assertThatThrownBy(consumer::start).isInstanceOf(MQClientException.class)
                    .hasMessageContaining("does not parse");
        } finally {
            consumer.shutdown();
        }
        assertStillServing();
    }

    @Test
    void shouldRefusePullsForAQueueThatDoesNotExist() throws Exception {
        PullMessageRequestHeader pull = pullHeader(99);
        pull.setSysFlag(1 << 2);
        pull.setExpressionType("TAG");
        pull.setSubscription("*");
        RemotingCommand response = raw.invokeSync(broker, RemotingCommand.createRequestCommand(
                RequestCode.PULL_MESSAGE, pull), 5000);
        assertThat(response.getCode()).as("Apache's answer").isEqualTo(ResponseCode.INVALID_PARAMETER);
        assertThat(response.getRemark()).contains("queueId[99] is illegal");

        PullMessageRequestHeader unknownTopic = pullHeader(0);
        unknownTopic.setTopic("NoSuchTopic");
        assertThat(raw.invokeSync(broker, RemotingCommand.createRequestCommand(RequestCode.PULL_MESSAGE,
                unknownTopic), 5000).getCode()).isEqualTo(ResponseCode.TOPIC_NOT_EXIST);
        assertStillServing();
    }

    private static PullMessageRequestHeader pullHeader(int queueId) {
        PullMessageRequestHeader h = new PullMessageRequestHeader();
        h.setConsumerGroup("CG_RAW");
        h.setTopic("TopicOk");
        h.setQueueId(queueId);
        h.setQueueOffset(0L);
        h.setMaxMsgNums(32);
        h.setSysFlag(0);
        h.setCommitOffset(0L);
        h.setSuspendTimeoutMillis(0L);
        h.setSubVersion(0L);
        return h;
    }
}
