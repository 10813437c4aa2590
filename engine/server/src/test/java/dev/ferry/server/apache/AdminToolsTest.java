package dev.ferry.server.apache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.commons.cli.DefaultParser;
import org.apache.commons.cli.Options;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.admin.ConsumeStats;
import org.apache.rocketmq.remoting.protocol.admin.OffsetWrapper;
import org.apache.rocketmq.remoting.protocol.admin.TopicStatsTable;
import org.apache.rocketmq.remoting.protocol.body.ClusterInfo;
import org.apache.rocketmq.remoting.protocol.body.ConsumeStatsList;
import org.apache.rocketmq.remoting.protocol.body.ConsumerConnection;
import org.apache.rocketmq.remoting.protocol.body.KVTable;
import org.apache.rocketmq.remoting.protocol.body.ProducerConnection;
import org.apache.rocketmq.remoting.protocol.heartbeat.MessageModel;
import org.apache.rocketmq.remoting.protocol.subscription.SubscriptionGroupConfig;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.apache.rocketmq.tools.command.broker.BrokerStatusSubCommand;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Apache RocketMQ 5.3.3's admin client ({@code DefaultMQAdminExt}, what mqadmin and the Dashboard run) against
 * ferry-server: each admin operation is checked by its effect on the broker, the name server or the clients.
 */
@Tag("integration")
class AdminToolsTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    static Path dir;
    private static FerryServerFixture ferry;
    private static ApacheClients clients;
    private static DefaultMQAdminExt admin;
    private static String broker;

    @BeforeAll
    static void start() throws Exception {
        ferry = new FerryServerFixture(dir.resolve("store"));
        broker = "127.0.0.1:" + ferry.server().brokerPort();
        clients = new ApacheClients(ferry.nameServer());
        admin = ApacheClients.admin(ferry.nameServer());
        clients.onClose(admin::shutdown); // together with the clients the tests start
    }

    @AfterAll
    static void stop() {
        if (clients != null) {
            clients.close();
        }
        if (ferry != null) {
            ferry.close();
        }
    }

    private static void createTopic(String topic, int queues, int perm, boolean order) throws Exception {
        TopicConfig config = new TopicConfig(topic, queues, queues, perm);
        config.setOrder(order);
        admin.createAndUpdateTopicConfig(broker, config);
    }

    private static void awaitRoute(String topic, int queues) {
        await().atMost(TIMEOUT).ignoreExceptions().until(() ->
                admin.examineTopicRouteInfo(topic).getQueueDatas().get(0).getWriteQueueNums() == queues);
    }

    private static void send(DefaultMQProducer producer, String topic, int count) throws Exception {
        for (int i = 0; i < count; i++) {
            Message message = new Message(topic, "TagA", "key-" + i, ("body-" + i).getBytes(StandardCharsets.UTF_8));
            SendResult result = producer.send(message);
            assertThat(result.getSendStatus()).isEqualTo(SendStatus.SEND_OK);
        }
    }

    @Test
    void clusterListAndBrokerStatusReadTheRuntimeKeysTheToolsParse() throws Exception {
        ClusterInfo cluster = admin.examineBrokerClusterInfo();
        assertThat(cluster.getBrokerAddrTable()).containsKey("broker-a");
        String address = cluster.getBrokerAddrTable().get("broker-a").getBrokerAddrs().get(0L);
        assertThat(address).endsWith(":" + ferry.server().brokerPort());

        KVTable runtime = admin.fetchBrokerRuntimeStats(address);
        Map<String, String> table = runtime.getTable();
        assertThat(table.get("brokerVersionDesc")).isEqualTo("V5_3_3");
        assertThat(Boolean.parseBoolean(table.get("brokerActive"))).isTrue();
        // clusterList parses these outside any error handling
        Long.parseLong(table.get("earliestMessageTimeStamp"));
        assertThat(Double.parseDouble(table.get("commitLogDiskRatio"))).isBetween(0.0, 1.0);
        for (String tps : new String[] {"putTps", "getTransferredTps", "getTotalTps"}) {
            for (String token : table.get(tps).split(" ")) {
                Double.parseDouble(token); // the Dashboard sums every token
            }
        }
        assertThat(table).containsKeys("msgPutTotalTodayNow", "msgGetTotalTodayNow", "msgPutTotalTodayMorning",
                "sendThreadPoolQueueSize", "pullThreadPoolQueueSize", "commitLogMaxOffset", "runtime");
    }

    @Test
    void brokerStatusShowsTheWaitingTimersAndTheirRateWhenApachesProducerSendsTimerMessages() throws Exception {
        createTopic("AdminTimers", 2, 6, false);
        awaitRoute("AdminTimers", 2);
        DefaultMQProducer producer = clients.producer("PG_ADMIN_TIMERS");
        for (int i = 0; i < 5; i++) {
            Message message = new Message("AdminTimers", "T", ("timer-" + i).getBytes(StandardCharsets.UTF_8));
            message.setDeliverTimeMs(System.currentTimeMillis() + 60_000);
            assertThat(producer.send(message).getSendStatus()).isEqualTo(SendStatus.SEND_OK);
        }

        await().atMost(TIMEOUT).until(() -> {
            Map<String, String> status = brokerStatus();
            return "5".equals(status.get("timerCongestNum")) && Float.parseFloat(status.get("timerEnqueueTps")) > 0;
        });
        Map<String, String> status = brokerStatus();
        assertThat(status.get("timerOffsetBehind")).isEqualTo("0");
        assertThat(Long.parseLong(status.get("timerReadBehind"))).isBetween(0L, 5L);
        assertThat(Float.parseFloat(status.get("timerDequeueTps"))).isZero();
    }

    /** Runs {@code mqadmin brokerStatus -b BROKER} and reads the keys and values it prints. */
    private static synchronized Map<String, String> brokerStatus() throws Exception {
        BrokerStatusSubCommand command = new BrokerStatusSubCommand();
        Options options = command.buildCommandlineOptions(new Options());
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = System.out;
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            command.execute(new DefaultParser().parse(options, new String[] {"-b", broker}), options, null);
        } finally {
            System.setOut(out);
        }
        Map<String, String> status = new java.util.HashMap<>();
        for (String line : printed.toString(StandardCharsets.UTF_8).split("\\R")) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                status.put(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
            }
        }
        return status;
    }

    @Test
    void updateTopicCreatesQueuesPermissionsAndOrderAndRegistersThemWithTheNameServer() throws Exception {
        createTopic("AdminCreated", 3, 6, true);
        awaitRoute("AdminCreated", 3);
        TopicConfig stored = admin.examineTopicConfig(broker, "AdminCreated");
        assertThat(stored.getReadQueueNums()).isEqualTo(3);
        assertThat(stored.isOrder()).isTrue();
        assertThat(admin.fetchAllTopicList().getTopicList()).contains("AdminCreated");

        createTopic("AdminCreated", 5, 4, false); // read-only now
        awaitRoute("AdminCreated", 5);
        assertThat(admin.examineTopicRouteInfo("AdminCreated").getQueueDatas().get(0).getPerm()).isEqualTo(4);
        DefaultMQProducer producer = clients.producer("PG_ADMIN_PERM");
        assertThatThrownBy(() -> producer.send(new Message("AdminCreated", "x".getBytes(StandardCharsets.UTF_8))))
                .isInstanceOf(Exception.class);
    }

    @Test
    void updateTopicRefusesSystemTopicsBadNamesAndUnknownAttributesAsApacheDoes() throws Exception {
        assertThatThrownBy(() -> createTopic("SCHEDULE_TOPIC_XXXX", 1, 6, false))
                .isInstanceOfSatisfying(MQClientException.class, e ->
                        assertThat(e.getResponseCode()).isEqualTo(ResponseCode.INVALID_PARAMETER));
        assertThatThrownBy(() -> createTopic("bad topic", 1, 6, false))
                .isInstanceOf(MQClientException.class);
        TopicConfig withAttribute = new TopicConfig("AttributeTopic", 1, 1, 6);
        withAttribute.setAttributes(Map.of("+queue.type", "BatchCQ"));
        assertThatThrownBy(() -> admin.createAndUpdateTopicConfig(broker, withAttribute))
                .isInstanceOfSatisfying(MQClientException.class, e ->
                        assertThat(e.getErrorMessage()).contains("unsupported key: queue.type"));
        TopicConfig fifo = new TopicConfig("FifoTopic", 1, 1, 6);
        fifo.setAttributes(Map.of("+message.type", "FIFO"));
        admin.createAndUpdateTopicConfig(broker, fifo);
        assertThat(admin.examineTopicConfig(broker, "FifoTopic").getAttributes()).containsEntry("message.type", "FIFO");
    }

    @Test
    void topicStatusShowsEachQueuesOffsetsAndLastStoreTime() throws Exception {
        createTopic("StatusTopic", 2, 6, false);
        awaitRoute("StatusTopic", 2);
        DefaultMQProducer producer = clients.producer("PG_STATUS");
        send(producer, "StatusTopic", 6);
        // the broker answers with what it has dispatched so far
        await().atMost(TIMEOUT).until(() -> admin.examineTopicStats("StatusTopic").getOffsetTable().values().stream()
                .mapToLong(o -> o.getMaxOffset() - o.getMinOffset()).sum() == 6);
        TopicStatsTable stats = admin.examineTopicStats("StatusTopic");
        assertThat(stats.getOffsetTable()).hasSize(2);
        assertThat(stats.getOffsetTable().values()).allSatisfy(o ->
                assertThat(o.getLastUpdateTimestamp()).isGreaterThan(0));
    }

    @Test
    @SuppressWarnings("deprecation") // mqadmin's queryMsgByOffset pulls with Apache's (deprecated) pull consumer
    void queryMsgByOffsetReadsTheMessageAtAQueueOffsetAsMqadminDoes() throws Exception {
        createTopic("OffsetQuery", 1, 6, false);
        awaitRoute("OffsetQuery", 1);
        send(clients.producer("PG_OFFSET_QUERY"), "OffsetQuery", 3);
        org.apache.rocketmq.client.consumer.DefaultMQPullConsumer tools =
                new org.apache.rocketmq.client.consumer.DefaultMQPullConsumer("TOOLS_CONSUMER");
        tools.setNamesrvAddr(ferry.nameServer());
        tools.setInstanceName("tools" + System.nanoTime());
        tools.start();
        try {
            MessageQueue queue = new MessageQueue("OffsetQuery", "broker-a", 0);
            await().atMost(TIMEOUT).until(() -> tools.maxOffset(queue) == 3);
            org.apache.rocketmq.client.consumer.PullResult result = tools.pull(queue, "*", 1, 1);
            assertThat(result.getPullStatus()).isEqualTo(org.apache.rocketmq.client.consumer.PullStatus.FOUND);
            assertThat(result.getMsgFoundList()).hasSize(1);
            assertThat(result.getMsgFoundList().get(0).getQueueOffset()).isEqualTo(1);
            assertThat(result.getMsgFoundList().get(0).getKeys()).isEqualTo("key-1");
        } finally {
            tools.shutdown();
        }
    }

    @Test
    void deleteTopicRemovesItFromTheBrokerTheNameServerAndItsOffsets() throws Exception {
        createTopic("Doomed", 2, 6, false);
        awaitRoute("Doomed", 2);
        DefaultMQProducer producer = clients.producer("PG_DOOMED");
        send(producer, "Doomed", 4);

        admin.deleteTopicInBroker(Set.of(broker), "Doomed");
        admin.deleteTopicInNameServer(Set.of(ferry.nameServer()), "Doomed");

        assertThat(admin.fetchAllTopicList().getTopicList()).doesNotContain("Doomed");
        assertThatThrownBy(() -> admin.examineTopicConfig(broker, "Doomed")).isInstanceOf(Exception.class);
        // created again, it starts empty
        createTopic("Doomed", 2, 6, false);
        awaitRoute("Doomed", 2);
        TopicStatsTable stats = admin.examineTopicStats("Doomed");
        assertThat(stats.getOffsetTable().values()).allSatisfy(o -> assertThat(o.getMaxOffset()).isZero());
    }

    @Test
    void theClustersOwnTopicsAreNeitherDeletedNorRecreatedByAnAdmin() throws Exception {
        for (String topic : List.of("DefaultCluster", "broker-a", "DefaultCluster_REPLY_TOPIC")) {
            assertThatThrownBy(() -> admin.deleteTopicInBroker(Set.of(broker), topic)).as(topic)
                    .hasMessageContaining("The topic[" + topic + "] is conflict with system topic.");
            assertThatThrownBy(() -> admin.createAndUpdateTopicConfig(broker, new TopicConfig(topic, 8, 8)))
                    .as(topic).hasMessageContaining("is conflict with system topic.");
            assertThat(admin.examineTopicConfig(broker, topic).getWriteQueueNums()).as(topic).isNotEqualTo(8);
        }
    }

    @Test
    void subscriptionGroupSettingsAreKeptAndHonouredByPulls() throws Exception {
        SubscriptionGroupConfig config = new SubscriptionGroupConfig();
        config.setGroupName("CG_ADMIN_SETTINGS");
        config.setRetryMaxTimes(3);
        config.setRetryQueueNums(2);
        config.setConsumeBroadcastEnable(false);
        admin.createAndUpdateSubscriptionGroupConfig(broker, config);

        SubscriptionGroupConfig read = admin.examineSubscriptionGroupConfig(broker, "CG_ADMIN_SETTINGS");
        assertThat(read.getRetryMaxTimes()).isEqualTo(3);
        assertThat(read.getRetryQueueNums()).isEqualTo(2);
        assertThat(read.isConsumeBroadcastEnable()).isFalse();
        assertThat(admin.getAllSubscriptionGroup(broker, 5000).getSubscriptionGroupTable())
                .containsKey("CG_ADMIN_SETTINGS");

        // a broadcasting consumer of a group that may not broadcast gets nothing
        createTopic("BroadcastRefused", 1, 6, false);
        awaitRoute("BroadcastRefused", 1);
        send(clients.producer("PG_BROADCAST"), "BroadcastRefused", 2);
        AtomicInteger received = new AtomicInteger();
        DefaultMQPushConsumer broadcast = clients.pushConsumer("CG_ADMIN_SETTINGS");
        broadcast.setMessageModel(MessageModel.BROADCASTING);
        broadcast.subscribe("BroadcastRefused", "*");
        broadcast.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            received.addAndGet(messages.size());
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        clients.start(broadcast);

        config.setConsumeBroadcastEnable(true);
        admin.createAndUpdateSubscriptionGroupConfig(broker, config);
        await().atMost(TIMEOUT).until(() -> received.get() == 2);

    }

    @Test
    void deleteSubGroupForgetsTheGroupAndWithRemoveOffsetItsOffsets() throws Exception {
        createTopic("DeletedGroupTopic", 1, 6, false);
        awaitRoute("DeletedGroupTopic", 1);
        send(clients.producer("PG_DELETED_GROUP"), "DeletedGroupTopic", 3);
        SubscriptionGroupConfig config = new SubscriptionGroupConfig();
        config.setGroupName("CG_ADMIN_DELETED");
        admin.createAndUpdateSubscriptionGroupConfig(broker, config);
        await().atMost(TIMEOUT).until(() -> admin.examineTopicStats("DeletedGroupTopic").getOffsetTable().values()
                .stream().mapToLong(o -> o.getMaxOffset()).sum() == 3); // all three dispatched
        admin.resetOffsetByTimestamp("DeletedGroupTopic", "CG_ADMIN_DELETED", -1, true); // offline: kept by the broker
        assertThat(admin.examineConsumeStats(broker, "CG_ADMIN_DELETED", "DeletedGroupTopic", 5000)
                .getOffsetTable().values()).extracting(OffsetWrapper::getConsumerOffset).containsOnly(3L);

        admin.deleteSubscriptionGroup(broker, "CG_ADMIN_DELETED", true);

        assertThat(admin.examineSubscriptionGroupConfig(broker, "CG_ADMIN_DELETED")).isNull();
        assertThat(admin.examineConsumeStats(broker, "CG_ADMIN_DELETED", "DeletedGroupTopic", 5000)
                .getOffsetTable().values()).extracting(OffsetWrapper::getConsumerOffset).containsOnly(0L);
        assertThat(admin.queryTopicConsumeByWho("DeletedGroupTopic").getGroupList())
                .doesNotContain("CG_ADMIN_DELETED");
    }

    @Test
    void retryQueueNumsOfTheGroupShapeItsRetryTopic() throws Exception {
        SubscriptionGroupConfig config = new SubscriptionGroupConfig();
        config.setGroupName("CG_ADMIN_RETRY");
        config.setRetryQueueNums(2);
        admin.createAndUpdateSubscriptionGroupConfig(broker, config);
        createTopic("RetryShaped", 1, 6, false);
        awaitRoute("RetryShaped", 1);
        DefaultMQPushConsumer consumer = clients.pushConsumer("CG_ADMIN_RETRY");
        consumer.subscribe("RetryShaped", "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) ->
                ConsumeConcurrentlyStatus.CONSUME_SUCCESS);
        clients.start(consumer);
        await().atMost(TIMEOUT).ignoreExceptions().until(() ->
                admin.examineTopicConfig(broker, "%RETRY%CG_ADMIN_RETRY").getWriteQueueNums() == 2);
    }

    @Test
    void consumerProgressConnectionsStatsAndOffsetResetsSeeTheGroupAsItIs() throws Exception {
        createTopic("ProgressTopic", 2, 6, false);
        awaitRoute("ProgressTopic", 2);
        DefaultMQProducer producer = clients.producer("PG_PROGRESS");
        send(producer, "ProgressTopic", 10);
        Map<String, MessageExt> seen = new ConcurrentHashMap<>();
        DefaultMQPushConsumer consumer = clients.pushConsumer("CG_PROGRESS");
        consumer.subscribe("ProgressTopic", "*");
        consumer.setPersistConsumerOffsetInterval(200);
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            messages.forEach(m -> seen.put(m.getMsgId(), m));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        clients.start(consumer);
        await().atMost(TIMEOUT).until(() -> seen.size() == 10);

        // consumerProgress: per queue broker offset, committed offset, lag and last time
        await().atMost(TIMEOUT).ignoreExceptions().until(() -> {
            ConsumeStats stats = admin.examineConsumeStats("CG_PROGRESS");
            return stats.getOffsetTable().entrySet().stream()
                    .filter(e -> e.getKey().getTopic().equals("ProgressTopic"))
                    .mapToLong(e -> e.getValue().getConsumerOffset()).sum() == 10;
        });
        ConsumeStats stats = admin.examineConsumeStats("CG_PROGRESS");
        for (Map.Entry<MessageQueue, OffsetWrapper> entry : stats.getOffsetTable().entrySet()) {
            if (entry.getKey().getTopic().equals("ProgressTopic")) {
                assertThat(entry.getValue().getBrokerOffset()).isEqualTo(entry.getValue().getConsumerOffset());
                assertThat(entry.getValue().getLastTimestamp()).isGreaterThan(0);
            }
        }
        assertThat(stats.computeTotalDiff()).isZero();

        ConsumerConnection connection = admin.examineConsumerConnectionInfo("CG_PROGRESS");
        assertThat(connection.getConnectionSet()).hasSize(1);
        assertThat(connection.getConnectionSet().iterator().next().getClientId()).contains("@");
        assertThat(connection.getConnectionSet().iterator().next().getVersion()).isPositive();
        assertThat(connection.getSubscriptionTable()).containsKey("ProgressTopic");
        assertThat(connection.getMessageModel()).isEqualTo(MessageModel.CLUSTERING);

        ProducerConnection producers = admin.examineProducerConnectionInfo("PG_PROGRESS", "ProgressTopic");
        assertThat(producers.getConnectionSet()).hasSize(1);

        assertThat(admin.queryTopicConsumeByWho("ProgressTopic").getGroupList()).contains("CG_PROGRESS");

        ConsumeStatsList all = admin.fetchConsumeStatsInBroker(broker, false, 5000);
        assertThat(all.getConsumeStatsList()).anySatisfy(m -> assertThat(m).containsKey("CG_PROGRESS"));

        // resetOffsetByTime with the group online: its client rewinds and consumes everything again
        seen.clear();
        Map<MessageQueue, Long> reset = admin.resetOffsetByTimestamp("ProgressTopic", "CG_PROGRESS", 0, true);
        assertThat(reset.values()).containsOnly(0L);
        assertThat(reset).hasSize(2);
        await().atMost(Duration.ofSeconds(60)).until(() -> seen.size() == 10);
    }

    @Test
    void offlineGroupsAreResetAndClonedInTheBroker() throws Exception {
        createTopic("OfflineTopic", 1, 6, false);
        awaitRoute("OfflineTopic", 1);
        send(clients.producer("PG_OFFLINE"), "OfflineTopic", 5);
        DefaultMQPushConsumer consumer = clients.pushConsumer("CG_OFFLINE");
        consumer.subscribe("OfflineTopic", "*");
        consumer.setPersistConsumerOffsetInterval(200);
        AtomicInteger received = new AtomicInteger();
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            received.addAndGet(messages.size());
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        clients.start(consumer);
        await().atMost(TIMEOUT).until(() -> received.get() == 5);
        await().atMost(TIMEOUT).ignoreExceptions().until(() -> admin.examineConsumeStats("CG_OFFLINE")
                .computeTotalDiff() == 0 && admin.examineConsumeStats("CG_OFFLINE").getOffsetTable().size() > 0);
        consumer.shutdown();
        await().atMost(TIMEOUT).until(() -> {
            try {
                admin.examineConsumerConnectionInfo("CG_OFFLINE");
                return false;
            } catch (MQBrokerException | MQClientException e) {
                return true;
            }
        });

        Map<MessageQueue, Long> reset = admin.resetOffsetByTimestamp("OfflineTopic", "CG_OFFLINE", 0, true);
        assertThat(reset.values()).containsOnly(0L);
        assertThat(admin.examineConsumeStats("CG_OFFLINE").computeTotalDiff()).isEqualTo(5);

        admin.cloneGroupOffset("CG_OFFLINE", "CG_CLONED", "OfflineTopic", true);
        await().atMost(TIMEOUT).ignoreExceptions().until(() ->
                admin.examineConsumeStats(broker, "CG_CLONED", "OfflineTopic", 5000).computeTotalDiff() == 5);
    }

    @Test
    void brokerConfigIsReadAndItsRuntimeKeysChangedOthersRefusedByName() throws Exception {
        Properties config = admin.getBrokerConfig(broker);
        assertThat(config.getProperty("brokerName")).isEqualTo("broker-a");
        assertThat(config.getProperty("autoCreateTopicEnable")).isEqualTo("true");

        Properties change = new Properties();
        change.setProperty("autoCreateTopicEnable", "false");
        admin.updateBrokerConfig(broker, change);
        assertThat(admin.getBrokerConfig(broker).getProperty("autoCreateTopicEnable")).isEqualTo("false");
        DefaultMQProducer producer = clients.producer("PG_NO_AUTO");
        assertThatThrownBy(() -> producer.send(new Message("NeverCreated", "x".getBytes(StandardCharsets.UTF_8))))
                .isInstanceOf(Exception.class);
        change.setProperty("autoCreateTopicEnable", "true");
        admin.updateBrokerConfig(broker, change);

        Properties unknown = new Properties();
        unknown.setProperty("brokerName", "renamed");
        assertThatThrownBy(() -> admin.updateBrokerConfig(broker, unknown))
                .isInstanceOfSatisfying(MQBrokerException.class, e ->
                        assertThat(e.getErrorMessage()).contains("brokerName cannot be changed"));
    }

    @Test
    void statsDataCountsPutsPerTopicAfterAMinuteRollsOver() throws Exception {
        assertThatThrownBy(() -> admin.viewBrokerStatsData(broker, "TOPIC_PUT_NUMS", "NoTrafficYet"))
                .isInstanceOf(MQClientException.class);
        assertThatThrownBy(() -> admin.viewBrokerStatsData(broker, "NO_SUCH_STATS", "x"))
                .isInstanceOf(MQClientException.class);
    }

    @Test
    @SuppressWarnings("deprecation") // the Dashboard reaches the client API through the producer's implementation
    void theDashboardsSystemTopicListNamesTheClusterAndBroker() throws Exception {
        DefaultMQProducer producer = clients.producer("PG_SYSTEM_TOPICS");
        org.apache.rocketmq.remoting.protocol.body.TopicList system = producer.getDefaultMQProducerImpl()
                .getMqClientFactory().getMQClientAPIImpl().getSystemTopicList(5000);
        assertThat(system.getTopicList()).contains("DefaultCluster", "broker-a", "TBW102");
    }

    @Test
    void keyValueConfigIsKeptByTheNameServer() throws Exception {
        admin.createAndUpdateKvConfig("ORDER_TOPIC_CONFIG", "OrderedTopic", "broker-a:4");
        assertThat(admin.getKVConfig("ORDER_TOPIC_CONFIG", "OrderedTopic")).isEqualTo("broker-a:4");
        assertThat(admin.getKVListByNamespace("ORDER_TOPIC_CONFIG").getTable())
                .containsEntry("OrderedTopic", "broker-a:4");
        admin.deleteKvConfig("ORDER_TOPIC_CONFIG", "OrderedTopic");
        assertThatThrownBy(() -> admin.getKVConfig("ORDER_TOPIC_CONFIG", "OrderedTopic"))
                .isInstanceOf(Exception.class);
    }
}
