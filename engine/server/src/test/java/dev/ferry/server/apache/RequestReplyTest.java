package dev.ferry.server.apache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ferry.server.FerryServerConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.RequestTimeoutException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.RequestCallback;
import org.apache.rocketmq.client.utils.MessageUtil;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Apache 5.3.3's request-reply against ferry-server: {@code request(msg, callback, timeout)} and
 * {@code request(msg, timeout)} answered by a consumer that replies with
 * {@code MessageUtil.createReplyMessage}; a reply sent through a second broker of the cluster reaches the requester's
 * connection to that broker; a reply nobody waits for is dropped and counted; a reply without its properties refused.
 */
@Tag("integration")
class RequestReplyTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final long REQUEST_TIMEOUT_MILLIS = 10_000;

    @TempDir
    Path dir;

    @Test
    void shouldAnswerApacheRequestsByCallbackWhenAConsumerRepliesWithCreateReplyMessage() throws Exception {
        try (FerryServerFixture ferry = new FerryServerFixture(dir);
             ApacheClients clients = new ApacheClients(ferry.nameServer())) {
            DefaultMQProducer requester = requesterOfAnEchoConsumer(ferry, clients);

            CompletableFuture<Message> answered = new CompletableFuture<>();
            requester.request(new Message("Requests", "ping".getBytes(StandardCharsets.UTF_8)), callback(answered),
                    REQUEST_TIMEOUT_MILLIS);
            Message reply = answered.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(new String(reply.getBody(), StandardCharsets.UTF_8)).isEqualTo("echo: ping");
            assertThat(reply.getTopic()).isEqualTo("DefaultCluster_REPLY_TOPIC");
            assertThat(reply.getProperty(MessageConst.PROPERTY_MESSAGE_TYPE)).isEqualTo("reply");
            assertThat(reply.getProperty(MessageConst.PROPERTY_PUSH_REPLY_TIME)).isNotNull();
            assertThat(reply.getProperty(MessageConst.PROPERTY_MESSAGE_TTL))
                    .isEqualTo(String.valueOf(REQUEST_TIMEOUT_MILLIS));

            CompletableFuture<Message> second = new CompletableFuture<>();
            requester.request(new Message("Requests", "pong".getBytes(StandardCharsets.UTF_8)), callback(second),
                    REQUEST_TIMEOUT_MILLIS);
            assertThat(new String(second.get(WAIT.toMillis(), TimeUnit.MILLISECONDS).getBody(),
                    StandardCharsets.UTF_8)).isEqualTo("echo: pong");
            await().atMost(WAIT).until(() -> ferry.server().broker().figures().repliesPushed() == 2);
        }
    }

    /**
     * Apache 5.3.1 and later's {@code request(msg, timeout)} wakes its caller when the request is acknowledged, not
     * when the reply comes (apache/rocketmq#9319): it throws RequestTimeoutException unless the reply was faster than
     * the acknowledgement. The broker's part is the same as for a callback: the reply reaches the requester's client.
     */
    @Test
    void shouldPushTheReplyToASyncApacheRequesterWhoseClientGivesUpAtTheAcknowledgement() throws Exception {
        try (FerryServerFixture ferry = new FerryServerFixture(dir);
             ApacheClients clients = new ApacheClients(ferry.nameServer())) {
            DefaultMQProducer requester = requesterOfAnEchoConsumer(ferry, clients);

            try {
                Message reply = requester.request(new Message("Requests", "sync".getBytes(StandardCharsets.UTF_8)),
                        REQUEST_TIMEOUT_MILLIS);
                assertThat(new String(reply.getBody(), StandardCharsets.UTF_8)).isEqualTo("echo: sync");
            } catch (RequestTimeoutException e) {
                assertThat(e.getMessage()).contains("send request message to <Requests> OK");
            }
            await().atMost(WAIT).until(() -> ferry.server().broker().figures().repliesPushed() == 1);
        }
    }

    @Test
    void shouldPushAReplySentThroughTheOtherBrokerToTheRequestersConnectionThere() throws Exception {
        try (FerryServerFixture a = new FerryServerFixture(FerryServerFixture.small(dir.resolve("a"))
                .brokerName("broker-a").build());
             FerryServerFixture b = new FerryServerFixture(FerryServerFixture.small(dir.resolve("b"))
                     .role(FerryServerConfig.Role.BROKER).nameServers(List.of(a.nameServer()))
                     .brokerName("broker-b").build());
             ApacheClients clients = new ApacheClients(a.nameServer())) {
            // the request topic on both, so that the requester's client knows (and heartbeats to) both brokers
            createTopic(a.nameServer(), a.server().broker().address(), "Spread");
            createTopic(a.nameServer(), b.server().broker().address(), "Spread");
            DefaultMQProducer replier = clients.producer("repliers");
            String replyTopic = "DefaultCluster_REPLY_TOPIC";
            await().atMost(WAIT).ignoreExceptions().until(() -> replier.fetchPublishMessageQueues(replyTopic)
                    .size() == 2);
            startEchoConsumer(clients, "Spread", replier, new MessageQueue(replyTopic, "broker-b", 0));
            DefaultMQProducer requester = clients.producer("requesters");

            // the request through broker-a only; the reply through broker-b only
            CompletableFuture<Message> answered = new CompletableFuture<>();
            requester.request(new Message("Spread", "across".getBytes(StandardCharsets.UTF_8)),
                    (queues, message, arg) -> queues.stream().filter(q -> q.getBrokerName().equals("broker-a"))
                            .findFirst().orElseThrow(), null, callback(answered), REQUEST_TIMEOUT_MILLIS);
            Message reply = answered.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(new String(reply.getBody(), StandardCharsets.UTF_8)).isEqualTo("echo: across");
            // counted when the requester's client has answered the push, which may be after it ran the callback
            await().atMost(WAIT).until(() -> b.server().broker().figures().repliesPushed() == 1);
            assertThat(a.server().broker().figures().repliesPushed()).isZero();
        }
    }

    /** A requester, once a consumer answers every message of the topic "Requests" with "echo: " and its body. */
    private static DefaultMQProducer requesterOfAnEchoConsumer(FerryServerFixture ferry, ApacheClients clients)
            throws Exception {
        createTopic(ferry.nameServer(), ferry.server().broker().address(), "Requests");
        startEchoConsumer(clients, "Requests", clients.producer("repliers"), null);
        return clients.producer("requesters");
    }

    /**
     * Completes with the reply. Apache 5.3.x calls {@code onSuccess} twice: with {@code null} when the request is
     * acknowledged, then with the reply.
     */
    private static RequestCallback callback(CompletableFuture<Message> answered) {
        return new RequestCallback() {
            @Override
            public void onSuccess(Message message) {
                if (message != null) {
                    answered.complete(message);
                }
            }

            @Override
            public void onException(Throwable e) {
                answered.completeExceptionally(e);
            }
        };
    }

    @Test
    void shouldDropAndCountAReplyWhoseRequesterHasGone() throws Exception {
        try (FerryServerFixture ferry = new FerryServerFixture(dir);
             ApacheClients clients = new ApacheClients(ferry.nameServer())) {
            DefaultMQProducer replier = clients.producer("repliers");
            replier.setRetryTimesWhenSendFailed(0);
            Message reply = reply("gone@client", "c-1");

            assertThatThrownBy(() -> replier.send(reply)).cause().isInstanceOfSatisfying(MQBrokerException.class, e -> {
                assertThat(e.getResponseCode()).isEqualTo(ResponseCode.SYSTEM_ERROR);
                assertThat(e.getErrorMessage()).contains("channel of <gone@client> not found");
            });
            assertThat(ferry.server().broker().figures().repliesDropped()).containsEntry("requester_gone", 1L);
            assertThat(ferry.server().broker().figures().repliesPushed()).isZero();
            assertThat(ferry.server().broker().store().nextOffset("DefaultCluster_REPLY_TOPIC", 0))
                    .as("a reply is never stored").isLessThanOrEqualTo(0);
        }
    }

    @Test
    void shouldRefuseAReplyWithoutReplyToClientOrCorrelationIdAsIllegal() throws Exception {
        try (FerryServerFixture ferry = new FerryServerFixture(dir);
             ApacheClients clients = new ApacheClients(ferry.nameServer())) {
            DefaultMQProducer replier = clients.producer("repliers");
            replier.setRetryTimesWhenSendFailed(0);

            assertThatThrownBy(() -> replier.send(reply(null, "c-1"))).isInstanceOfSatisfying(
                    MQBrokerException.class, e -> {
                        assertThat(e.getResponseCode()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
                        assertThat(e.getErrorMessage()).contains("reply message properties[REPLY_TO_CLIENT] is null");
                    });
            assertThatThrownBy(() -> replier.send(reply("someone@client", null))).isInstanceOfSatisfying(
                    MQBrokerException.class, e -> {
                        assertThat(e.getResponseCode()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
                        assertThat(e.getErrorMessage()).contains("reply message properties[CORRELATION_ID] is null");
                    });
            assertThat(ferry.server().broker().figures().repliesDropped().values()).allMatch(n -> n == 0);
        }
    }

    /** A reply as an Apache producer sends one (the reply type makes it SEND_REPLY_MESSAGE), without a request. */
    private static Message reply(String replyTo, String correlationId) {
        Message reply = new Message("DefaultCluster_REPLY_TOPIC", "late".getBytes(StandardCharsets.UTF_8));
        MessageAccessor.putProperty(reply, MessageConst.PROPERTY_MESSAGE_TYPE, "reply");
        if (replyTo != null) {
            MessageAccessor.putProperty(reply, MessageConst.PROPERTY_MESSAGE_REPLY_TO_CLIENT, replyTo);
        }
        if (correlationId != null) {
            MessageAccessor.putProperty(reply, MessageConst.PROPERTY_CORRELATION_ID, correlationId);
        }
        return reply;
    }

    /** Answers every message of {@code topic} with "echo: " and its body, to {@code replyQueue} when given. */
    private static void startEchoConsumer(ApacheClients clients, String topic, DefaultMQProducer replier,
                                          MessageQueue replyQueue) throws Exception {
        DefaultMQPushConsumer consumer = clients.pushConsumer("echo-" + topic);
        CountDownLatch warmedUp = new CountDownLatch(replier.fetchPublishMessageQueues(topic).size());
        consumer.subscribe(topic, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            for (MessageExt request : messages) {
                if (request.getProperty(MessageConst.PROPERTY_MESSAGE_REPLY_TO_CLIENT) == null) {
                    warmedUp.countDown();
                    continue;
                }
                try {
                    Message reply = MessageUtil.createReplyMessage(request,
                            ("echo: " + new String(request.getBody(), StandardCharsets.UTF_8))
                                    .getBytes(StandardCharsets.UTF_8));
                    if (replyQueue == null) {
                        replier.send(reply);
                    } else {
                        replier.send(reply, replyQueue);
                    }
                } catch (Exception e) {
                    return ConsumeConcurrentlyStatus.RECONSUME_LATER;
                }
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        clients.start(consumer);
        // requests wait for their reply a while only: send them once the consumer reads what is sent
        DefaultMQProducer warmer = clients.producer("warmers");
        for (MessageQueue queue : warmer.fetchPublishMessageQueues(topic)) {
            warmer.send(new Message(topic, "warm-up".getBytes(StandardCharsets.UTF_8)), queue);
        }
        assertThat(warmedUp.await(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the consumer reads every queue").isTrue();
    }

    private static void createTopic(String nameServer, String brokerAddress, String topic) throws Exception {
        DefaultMQAdminExt admin = ApacheClients.admin(nameServer);
        try {
            admin.createAndUpdateTopicConfig(brokerAddress, new TopicConfig(topic, 4, 4, 6));
            await().atMost(WAIT).ignoreExceptions().until(() -> admin.examineTopicRouteInfo(topic).getBrokerDatas()
                    .stream().anyMatch(data -> data.getBrokerAddrs().containsValue(brokerAddress)));
        } finally {
            admin.shutdown();
        }
    }
}
