package dev.ferry.server.broker;

import static dev.ferry.server.broker.RawRequests.command;
import static dev.ferry.server.broker.RawRequests.commit;
import static dev.ferry.server.broker.RawRequests.heartbeat;
import static dev.ferry.server.broker.RawRequests.pull;
import static dev.ferry.server.broker.RawRequests.send;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.format.Clock;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.testing.ClientShutdowns;
import dev.ferry.server.FerryServer;
import dev.ferry.server.FerryServerConfig;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.body.CheckClientRequestBody;
import org.apache.rocketmq.remoting.protocol.body.LockBatchRequestBody;
import org.apache.rocketmq.remoting.protocol.body.LockBatchResponseBody;
import org.apache.rocketmq.remoting.protocol.heartbeat.SubscriptionData;
import org.apache.rocketmq.remoting.protocol.subscription.SubscriptionGroupConfig;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Every table, cache and queue a client can grow is bounded, and going beyond a bound refuses only that request. */
@Tag("integration")
class BrokerLimitsTest {
    private static final long TIMEOUT_MILLIS = 10_000;

    @TempDir
    Path dir;
    private FerryServer server;
    @RegisterExtension
    static final ClassRawClient raw = new ClassRawClient();
    private String broker;

    private void start(BrokerLimits limits) {
        start(limits, b -> { });
    }

    private void start(BrokerLimits limits, java.util.function.Consumer<BrokerConfig.Builder> settings) {
        server = new FerryServer(FerryServerConfig.builder(dir).namesrvPort(0).brokerPort(0)
                .commitLogSegmentSize(4 << 20).brokerLimits(limits).broker(settings).build(), Clock.system(),
                new DefaultThreadFactory("limits", true)).start();
        broker = "127.0.0.1:" + server.brokerPort();
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private RemotingCommand invoke(RemotingCommand request) throws Exception {
        return raw.invokeSync(broker, request, TIMEOUT_MILLIS);
    }

    @Test
    void shouldAnswerSystemBusyWhenTheSendQueueIsFullWhileHeartbeatsAndPullsAreServed() throws Exception {
        start(BrokerLimits.builder().sendQueueCapacity(3).build());
        assertThat(invoke(send("TopicBusy", "first", "")).getCode()).isEqualTo(ResponseCode.SUCCESS);
        ThreadPoolExecutor sends = server.broker().executors().get("send");
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch occupied = new CountDownLatch(1);
        // a send taking its time in the lane: the sends behind it queue, none is stored on the event loop
        server.broker().sendLane().execute(() -> {
            occupied.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        // the send thread may still be finishing the first send: only a running blocker leaves the queue to the sends
        assertThat(occupied.await(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)).isTrue();
        List<CompletableFuture<RemotingCommand>> queued = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            CompletableFuture<RemotingCommand> answer = new CompletableFuture<>();
            raw.invokeAsync(broker, send("TopicBusy", "queued" + i, ""), 30_000, future ->
                    answer.complete(future.getResponseCommand()));
            queued.add(answer);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> sends.getQueue().size() == 3);

        RemotingCommand busy = invoke(send("TopicBusy", "one too many", ""));
        RemotingCommand heartbeat = invoke(heartbeat("client-busy", "CG_BUSY", "TopicBusy", "TAG", "*"));
        RemotingCommand pulled = invoke(pull("CG_BUSY", "TopicBusy", 0));

        assertThat(busy.getCode()).isEqualTo(ResponseCode.SYSTEM_BUSY);
        assertThat(busy.getRemark()).isEqualTo("[OVERLOAD]system busy, start flow control for a while");
        assertThat(heartbeat.getCode()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(pulled.getCode()).isEqualTo(ResponseCode.SUCCESS);
        release.countDown();
        for (CompletableFuture<RemotingCommand> answer : queued) {
            assertThat(answer.get().getCode()).isEqualTo(ResponseCode.SUCCESS);
        }
    }

    @Test
    void shouldKeepOffsetsOnlyForKnownGroupsServedTopicsAndQueuesInRange() throws Exception {
        start(BrokerLimits.builder().maxConsumerOffsets(2).build());
        invoke(send("TopicOffsets", "m", ""));
        invoke(pull("CG_OFFSETS", "TopicOffsets", 0)); // makes the group known, as a consumer's first pull does

        assertThat(invoke(commit("CG_OFFSETS", "TopicOffsets", 0, 1)).getCode()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(invoke(commit("CG_NEVER_SEEN", "TopicOffsets", 0, 1)).getCode())
                .isEqualTo(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST);
        assertThat(invoke(commit("CG_OFFSETS", "NoSuchTopic", 0, 1)).getCode())
                .isEqualTo(ResponseCode.TOPIC_NOT_EXIST);
        RemotingCommand negativeQueue = invoke(commit("CG_OFFSETS", "TopicOffsets", -5, 1));
        assertThat(negativeQueue.getCode()).isEqualTo(ResponseCode.INVALID_PARAMETER);
        assertThat(negativeQueue.getRemark()).contains("queueId -5");
        assertThat(invoke(commit("CG_OFFSETS", "TopicOffsets", 2, 1)).getCode())
                .as("beyond the topic's two queues").isEqualTo(ResponseCode.INVALID_PARAMETER);
        RemotingCommand negativeOffset = invoke(commit("CG_OFFSETS", "TopicOffsets", 0, -7));
        assertThat(negativeOffset.getCode()).isEqualTo(ResponseCode.INVALID_PARAMETER);
        assertThat(negativeOffset.getRemark()).contains("-7");

        assertThat(invoke(commit("CG_OFFSETS", "TopicOffsets", 1, 1)).getCode()).isEqualTo(ResponseCode.SUCCESS);
        invoke(send("TopicOther", "m", ""));
        RemotingCommand full = invoke(commit("CG_OFFSETS", "TopicOther", 0, 1));
        assertThat(full.getCode()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(full.getRemark()).contains("maxConsumerOffsets");
        assertThat(invoke(commit("CG_OFFSETS", "TopicOffsets", 0, 5)).getCode())
                .as("an offset already kept moves on").isEqualTo(ResponseCode.SUCCESS);
        assertThat(server.broker().stats().health().consumerOffsets()).isEqualTo(2);
    }

    @Test
    void shouldReturnAtMostTheQueryCapHoweverManyAreAskedFor() throws Exception {
        start(BrokerLimits.builder().maxQueryResults(64).build());
        for (int i = 0; i < 100; i++) {
            invoke(send("TopicQuery", "m" + i, "KEYS\u0001same-key\u0002"));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> server.broker().store().dispatchedOffset()
                == server.broker().store().commitLogEndOffset());

        RemotingCommand found = invoke(command(RequestCode.QUERY_MESSAGE, Map.of("topic", "TopicQuery", "key",
                "same-key", "maxNum", "100000", "beginTimestamp", "0", "endTimestamp",
                Long.toString(Long.MAX_VALUE))));

        assertThat(found.getCode()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(org.apache.rocketmq.common.message.MessageDecoder.decodes(java.nio.ByteBuffer.wrap(
                found.getBody()))).hasSize(64);
    }

    @Test
    void shouldRefuseExpressionsOverTheCapAndKeepTheFilterCacheWithinItsBytes() throws Exception {
        start(BrokerLimits.builder().maxExpressionLength(8 * 1024).filterCacheBytes(1 << 20).build());
        invoke(send("TopicSql", "m", ""));
        String huge = "a = '" + "x".repeat(4 * 1024 * 1024) + "'";

        CheckClientRequestBody check = new CheckClientRequestBody();
        check.setClientId("client-sql");
        check.setGroup("CG_SQL");
        SubscriptionData subscription = new SubscriptionData("TopicSql", huge);
        subscription.setExpressionType("SQL92");
        check.setSubscriptionData(subscription);
        RemotingCommand checkRequest = RemotingCommand.createRequestCommand(RequestCode.CHECK_CLIENT_CONFIG, null);
        checkRequest.setBody(check.encode());
        RemotingCommand checked = invoke(checkRequest);
        assertThat(checked.getCode()).isEqualTo(ResponseCode.SUBSCRIPTION_PARSE_FAILED);
        assertThat(checked.getRemark()).contains("at most 8192").hasSizeLessThan(1024);

        RemotingCommand beat = invoke(heartbeat("client-sql", "CG_SQL", "TopicSql", "SQL92", huge));
        assertThat(beat.getCode()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(beat.getRemark()).contains("at most 8192");

        for (int i = 0; i < 500; i++) {
            String expression = "a = '" + i + "x".repeat(7 * 1024) + "'";
            assertThat(invoke(heartbeat("client-" + i, "CG_SQL_" + i, "TopicSql", "SQL92", expression)).getCode())
                    .isEqualTo(ResponseCode.SUCCESS);
        }
        assertThat(server.broker().stats().health().filterCacheBytes()).isPositive().isLessThanOrEqualTo(1 << 20);
    }

    @Test
    void shouldHoldAtMostTheCapOfPullsPerConnectionAndAnswerTheRestSystemBusy() throws Exception {
        start(BrokerLimits.builder().maxHeldPullsPerConnection(2).build());
        invoke(send("TopicHeld", "m", ""));
        invoke(heartbeat("client-held", "CG_HELD", "TopicHeld", "TAG", "*"));
        // queue 1 is empty: a long poll there is held
        List<CompletableFuture<RemotingCommand>> pulls = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            RemotingCommand request = pull("CG_HELD", "TopicHeld", 5_000);
            request.addExtField("queueId", "1");
            CompletableFuture<RemotingCommand> answer = new CompletableFuture<>();
            raw.invokeAsync(broker, request, 30_000, future -> answer.complete(future.getResponseCommand()));
            pulls.add(answer);
        }

        RemotingCommand busy = CompletableFuture.anyOf(pulls.toArray(CompletableFuture[]::new))
                .thenApply(RemotingCommand.class::cast).get();
        assertThat(busy.getCode()).isEqualTo(ResponseCode.SYSTEM_BUSY);
        assertThat(server.broker().stats().health().heldPulls()).isEqualTo(2);
        for (CompletableFuture<RemotingCommand> pull : pulls) {
            assertThat(pull.get().getCode()).isIn(ResponseCode.SYSTEM_BUSY, ResponseCode.PULL_NOT_FOUND);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> server.broker().stats().health().heldPulls() == 0);
    }

    @Test
    void shouldCreateNoTopicOrGroupBeyondItsCapAndSaySo() throws Exception {
        start(BrokerLimits.builder().maxTopics(6).maxSubscriptionGroups(2).build());
        // TBW102, the topics named after the cluster and the broker, and the cluster's reply topic are the first four
        assertThat(invoke(send("TopicCap1", "m", "")).getCode()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(invoke(send("TopicCap2", "m", "")).getCode()).isEqualTo(ResponseCode.SUCCESS);
        RemotingCommand third = invoke(send("TopicCap3", "m", ""));
        assertThat(third.getCode()).isEqualTo(ResponseCode.TOPIC_NOT_EXIST);
        assertThat(third.getRemark()).contains("6 topics, its maximum");

        assertThat(invoke(pull("CG_CAP1", "TopicCap1", 0)).getCode()).isNotEqualTo(
                ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST);
        assertThat(invoke(pull("CG_CAP2", "TopicCap1", 0)).getCode()).isNotEqualTo(
                ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST);
        RemotingCommand overGroups = invoke(pull("CG_CAP3", "TopicCap1", 0));
        assertThat(overGroups.getCode()).isEqualTo(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST);
        assertThat(overGroups.getRemark()).contains("2 groups, its maximum");
    }

    private static RemotingCommand lock(String clientId, String topic, int queues) {
        LockBatchRequestBody body = new LockBatchRequestBody();
        body.setConsumerGroup("CG_LOCKS");
        body.setClientId(clientId);
        Set<MessageQueue> set = new HashSet<>();
        for (int i = 0; i < queues; i++) {
            set.add(new MessageQueue(topic, "broker-a", i));
        }
        body.setMqSet(set);
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.LOCK_BATCH_MQ, null);
        request.setBody(body.encode());
        return request;
    }

    private static Set<MessageQueue> locked(RemotingCommand response) {
        assertThat(response.getCode()).isEqualTo(ResponseCode.SUCCESS);
        return LockBatchResponseBody.decode(response.getBody(), LockBatchResponseBody.class).getLockOKMQSet();
    }

    @Test
    void shouldLockNoQueueBeyondTheCapAndFreeAClientsLocksWhenItsConnectionCloses() throws Exception {
        start(BrokerLimits.builder().maxQueueLocks(1).build());
        assertThat(invoke(send("TopicLocks", "m", "")).getCode()).isEqualTo(ResponseCode.SUCCESS); // 2 queues
        NettyRemotingClient clientA = new NettyRemotingClient(new NettyClientConfig());
        clientA.start();
        NettyRemotingClient other = new NettyRemotingClient(new NettyClientConfig());
        other.start();
        try {
            RemotingCommand first = clientA.invokeSync(broker, lock("client-a", "TopicLocks", 2), TIMEOUT_MILLIS);
            assertThat(locked(first)).hasSize(1);
            assertThat(first.getRemark()).isEqualTo("1 of the queues not locked: the broker holds its most queue "
                    + "locks (maxQueueLocks)");
            assertThat(locked(other.invokeSync(broker, lock("client-b", "TopicLocks", 2), TIMEOUT_MILLIS)))
                    .as("one held by client-a, and no room for the other").isEmpty();

            // client-a's connection closes: its locks go at once, not a minute later
            clientA.closeChannels(List.of(broker));

            await().atMost(Duration.ofSeconds(10)).until(() -> locked(other.invokeSync(broker,
                    lock("client-b", "TopicLocks", 2), TIMEOUT_MILLIS)).size() == 1);
        } finally {
            ClientShutdowns.together(clientA::shutdown, other::shutdown);
        }
    }

    /**
     * Apache's autoCreateSubscriptionGroup=false: a group no one created is not served (its heartbeat skipped, its
     * pull and offset commit answered SUBSCRIPTION_GROUP_NOT_EXIST) until an operator creates it with Apache's
     * updateSubGroup; Apache's system groups, which its tools use, are served as before.
     */
    @Test
    void shouldServeAGroupOnlyOnceAnOperatorCreatedItWhenAutoCreateSubscriptionGroupIsOff() throws Exception {
        start(BrokerLimits.defaults(), b -> b.autoCreateSubscriptionGroup(false));
        assertThat(invoke(send("TopicGroups", "m", "")).getCode()).isEqualTo(ResponseCode.SUCCESS);

        RemotingCommand pulled = invoke(pull("CG_UNCREATED", "TopicGroups", 0));
        assertThat(pulled.getCode()).isEqualTo(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST);
        assertThat(pulled.getRemark()).contains("subscription group [CG_UNCREATED] does not exist",
                "autoCreateSubscriptionGroup=false");
        RemotingCommand beat = invoke(heartbeat("client-1", "CG_UNCREATED", "TopicGroups", "TAG", "*"));
        assertThat(beat.getCode()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(beat.getRemark()).as("the heartbeat skips the group").contains("CG_UNCREATED");
        assertThat(invoke(commit("CG_UNCREATED", "TopicGroups", 0, 1)).getCode())
                .isEqualTo(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST);
        assertThat(invoke(pull("TOOLS_CONSUMER", "TopicGroups", 0)).getCode()).as("Apache's tools' group")
                .isNotEqualTo(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST);

        DefaultMQAdminExt admin = new DefaultMQAdminExt();
        admin.setNamesrvAddr("127.0.0.1:" + server.namesrvPort());
        admin.setInstanceName("groups-" + System.nanoTime());
        admin.start();
        try {
            SubscriptionGroupConfig group = new SubscriptionGroupConfig();
            group.setGroupName("CG_UNCREATED");
            admin.createAndUpdateSubscriptionGroupConfig(broker, group);
        } finally {
            admin.shutdown();
        }
        assertThat(invoke(pull("CG_UNCREATED", "TopicGroups", 0)).getCode()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(invoke(commit("CG_UNCREATED", "TopicGroups", 0, 1)).getCode()).isEqualTo(ResponseCode.SUCCESS);
    }
}
