package dev.ferry.server.apache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.NameRules;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.body.DataVersion;
import dev.ferry.remoting.protocol.body.RegisterBrokerBody;
import dev.ferry.remoting.protocol.body.TopicConfig;
import dev.ferry.remoting.protocol.body.TopicConfigSerializeWrapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.body.CheckClientRequestBody;
import org.apache.rocketmq.remoting.protocol.body.LockBatchRequestBody;
import org.apache.rocketmq.remoting.protocol.body.LockBatchResponseBody;
import org.apache.rocketmq.remoting.protocol.heartbeat.ConsumeType;
import org.apache.rocketmq.remoting.protocol.heartbeat.ConsumerData;
import org.apache.rocketmq.remoting.protocol.heartbeat.HeartbeatData;
import org.apache.rocketmq.remoting.protocol.heartbeat.MessageModel;
import org.apache.rocketmq.remoting.protocol.heartbeat.ProducerData;
import org.apache.rocketmq.remoting.protocol.heartbeat.SubscriptionData;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every entry point of the broker and the name server refuses every kind of bad topic and group name, with the
 * response code Apache's broker gives for the same request (INVALID_PARAMETER where Apache checks nothing and would
 * have created state) and a remark naming the field; nothing with a bad name is ever kept.
 */
@Tag("integration")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BadNamesTest {
    private static final String GOOD_TOPIC = "TopicNames";
    private static final String GOOD_GROUP = "CG_NAMES";
    /** Millions of characters; some requests carry a name twice, and the frame holds 16 MiB. */
    private static final String HUGE = "x".repeat(7_000_000);

    @TempDir
    static Path dir;
    private static FerryServerFixture ferry;
    private static NettyRemotingClient raw;
    private static String broker;
    private static String namesrv;

    @BeforeAll
    static void start() throws Exception {
        ferry = new FerryServerFixture(dir);
        broker = "127.0.0.1:" + ferry.server().brokerPort();
        namesrv = ferry.nameServer();
        NettyClientConfig config = new NettyClientConfig();
        raw = new NettyRemotingClient(config);
        raw.start();
        DefaultMQProducer producer = new DefaultMQProducer("PG_NAMES");
        producer.setNamesrvAddr(namesrv);
        producer.setInstanceName("names" + System.nanoTime());
        producer.start();
        try {
            assertThat(producer.send(new Message(GOOD_TOPIC, "ok".getBytes(StandardCharsets.UTF_8)))
                    .getSendStatus()).isEqualTo(SendStatus.SEND_OK);
        } finally {
            producer.shutdown();
        }
        // the group is known, so that offset commits get past the group check to the topic check
        assertThat(invoke(broker, pull(GOOD_GROUP, GOOD_TOPIC, 11)).getCode()).isNotEqualTo(
                ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST);
    }

    @AfterAll
    static void stop() {
        raw.shutdown();
        ferry.close();
    }

    static Stream<String> badTopics() {
        return Stream.of("bad topic!", "../../../tmp/pwn", "a/b", "line\nbreak", "t".repeat(128),
                "%RETRY%" + "g".repeat(256), HUGE);
    }

    static Stream<String> badGroups() {
        return Stream.of("bad group!", "../../../tmp/pwn", "a/b", "line\nbreak", "g".repeat(256), HUGE);
    }

    /** One place a name enters: how to put a bad name there, what the answer must be, and the field it names. */
    private record EntryPoint(String name, Function<String, RemotingCommand> request, String address, int code,
                              String field) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static List<EntryPoint> topicEntryPoints() {
        return List.of(
                new EntryPoint("SEND_MESSAGE_V2", t -> send(RequestCode.SEND_MESSAGE_V2, "PG_NAMES", t), broker,
                        ResponseCode.INVALID_PARAMETER, "topic"),
                new EntryPoint("SEND_BATCH_MESSAGE", t -> send(RequestCode.SEND_BATCH_MESSAGE, "PG_NAMES", t), broker,
                        ResponseCode.INVALID_PARAMETER, "topic"),
                new EntryPoint("PULL_MESSAGE", t -> pull(GOOD_GROUP, t, RequestCode.PULL_MESSAGE), broker,
                        ResponseCode.TOPIC_NOT_EXIST, "topic"),
                new EntryPoint("LITE_PULL_MESSAGE", t -> pull(GOOD_GROUP, t, RequestCode.LITE_PULL_MESSAGE), broker,
                        ResponseCode.TOPIC_NOT_EXIST, "topic"),
                new EntryPoint("QUERY_CONSUMER_OFFSET", t -> offsetQuery(GOOD_GROUP, t), broker,
                        ResponseCode.INVALID_PARAMETER, "topic"),
                new EntryPoint("UPDATE_CONSUMER_OFFSET", t -> offsetCommit(GOOD_GROUP, t, 0, 1), broker,
                        ResponseCode.TOPIC_NOT_EXIST, "Topic"),
                new EntryPoint("GET_MAX_OFFSET", t -> queueRequest(RequestCode.GET_MAX_OFFSET, t), broker,
                        ResponseCode.INVALID_PARAMETER, "topic"),
                new EntryPoint("GET_MIN_OFFSET", t -> queueRequest(RequestCode.GET_MIN_OFFSET, t), broker,
                        ResponseCode.INVALID_PARAMETER, "topic"),
                new EntryPoint("SEARCH_OFFSET_BY_TIMESTAMP", t -> queueRequest(RequestCode.SEARCH_OFFSET_BY_TIMESTAMP,
                        t), broker, ResponseCode.INVALID_PARAMETER, "topic"),
                new EntryPoint("GET_EARLIEST_MSG_STORETIME", t -> queueRequest(RequestCode.GET_EARLIEST_MSG_STORETIME,
                        t), broker, ResponseCode.INVALID_PARAMETER, "topic"),
                new EntryPoint("QUERY_MESSAGE", BadNamesTest::query, broker, ResponseCode.INVALID_PARAMETER, "topic"),
                new EntryPoint("CHECK_CLIENT_CONFIG", t -> checkClientConfig(GOOD_GROUP, t), broker,
                        ResponseCode.INVALID_PARAMETER, "subscriptionData.topic"),
                new EntryPoint("GET_ROUTEINFO_BY_TOPIC", BadNamesTest::route, namesrv, ResponseCode.TOPIC_NOT_EXIST,
                        "topic"));
    }

    private static List<EntryPoint> groupEntryPoints() {
        return List.of(
                new EntryPoint("SEND_MESSAGE_V2 producerGroup", g -> send(RequestCode.SEND_MESSAGE_V2, g, GOOD_TOPIC),
                        broker, ResponseCode.INVALID_PARAMETER, "producerGroup"),
                new EntryPoint("CONSUMER_SEND_MSG_BACK", BadNamesTest::sendBack, broker,
                        ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, "group"),
                new EntryPoint("PULL_MESSAGE", g -> pull(g, GOOD_TOPIC, RequestCode.PULL_MESSAGE), broker,
                        ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, "group"),
                new EntryPoint("LITE_PULL_MESSAGE", g -> pull(g, GOOD_TOPIC, RequestCode.LITE_PULL_MESSAGE), broker,
                        ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, "group"),
                new EntryPoint("QUERY_CONSUMER_OFFSET", g -> offsetQuery(g, GOOD_TOPIC), broker,
                        ResponseCode.INVALID_PARAMETER, "consumerGroup"),
                new EntryPoint("UPDATE_CONSUMER_OFFSET", g -> offsetCommit(g, GOOD_TOPIC, 0, 1), broker,
                        ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, "Group"),
                new EntryPoint("LOCK_BATCH_MQ", g -> lock(RequestCode.LOCK_BATCH_MQ, g, GOOD_TOPIC), broker,
                        ResponseCode.INVALID_PARAMETER, "consumerGroup"),
                new EntryPoint("UNLOCK_BATCH_MQ", g -> lock(RequestCode.UNLOCK_BATCH_MQ, g, GOOD_TOPIC), broker,
                        ResponseCode.INVALID_PARAMETER, "consumerGroup"),
                new EntryPoint("UNREGISTER_CLIENT", BadNamesTest::unregister, broker, ResponseCode.INVALID_PARAMETER,
                        "consumerGroup"),
                new EntryPoint("END_TRANSACTION", BadNamesTest::endTransaction, broker,
                        ResponseCode.INVALID_PARAMETER, "producerGroup"),
                new EntryPoint("CHECK_CLIENT_CONFIG", g -> checkClientConfig(g, GOOD_TOPIC), broker,
                        ResponseCode.INVALID_PARAMETER, "group"),
                new EntryPoint("GET_CONSUMER_LIST_BY_GROUP", BadNamesTest::consumerList, broker,
                        ResponseCode.INVALID_PARAMETER, "consumerGroup"),
                new EntryPoint("REGISTER_BROKER brokerName", g -> registerBroker(g, "DefaultCluster", Map.of()),
                        namesrv, ResponseCode.INVALID_PARAMETER, "brokerName"),
                new EntryPoint("REGISTER_BROKER clusterName", g -> registerBroker("broker-x", g, Map.of()),
                        namesrv, ResponseCode.INVALID_PARAMETER, "clusterName"),
                new EntryPoint("UNREGISTER_BROKER", BadNamesTest::unregisterBroker, namesrv,
                        ResponseCode.INVALID_PARAMETER, "brokerName"));
    }

    static Stream<Arguments> badTopicsAtEveryEntryPoint() {
        List<Arguments> cases = new ArrayList<>();
        for (EntryPoint entry : topicEntryPoints()) {
            badTopics().forEach(topic -> cases.add(Arguments.of(entry, topic)));
        }
        return cases.stream();
    }

    static Stream<Arguments> badGroupsAtEveryEntryPoint() {
        List<Arguments> cases = new ArrayList<>();
        for (EntryPoint entry : groupEntryPoints()) {
            badGroups().forEach(group -> cases.add(Arguments.of(entry, group)));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} refuses topic {index}")
    @MethodSource("badTopicsAtEveryEntryPoint")
    void shouldRefuseABadTopicWhereItEntersWithApachesCodeAndARemarkNamingTheField(EntryPoint entry, String topic)
            throws Exception {
        assertRefused(entry, topic);
    }

    @ParameterizedTest(name = "{0} refuses group {index}")
    @MethodSource("badGroupsAtEveryEntryPoint")
    void shouldRefuseABadGroupWhereItEntersWithApachesCodeAndARemarkNamingTheField(EntryPoint entry, String group)
            throws Exception {
        assertRefused(entry, group);
    }

    private static void assertRefused(EntryPoint entry, String name) throws Exception {
        RemotingCommand response = invoke(entry.address(), entry.request().apply(name));
        assertThat(response.getCode()).as("%s with %s: %s", entry, NameRules.shown(name), response.getRemark())
                .isEqualTo(entry.code());
        assertThat(response.getRemark()).as("remark of %s", entry).contains(entry.field())
                .hasSizeLessThan(1024);
    }

    /** Apache skips a heartbeat's invalid groups and answers SUCCESS; Ferry does, and says what it skipped. */
    @ParameterizedTest(name = "heartbeat skips group {index}")
    @MethodSource("badGroups")
    void shouldSkipTheBadGroupsOfAHeartbeatKeepTheGoodOnesAndSayWhatWasSkipped(String group) throws Exception {
        HeartbeatData heartbeat = heartbeat("hb-client", group, GOOD_TOPIC);
        heartbeat.getConsumerDataSet().add(consumerData("CG_HB_GOOD", GOOD_TOPIC));
        ProducerData producer = new ProducerData();
        producer.setGroupName(group);
        heartbeat.getProducerDataSet().add(producer);
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.HEART_BEAT, null);
        request.setBody(heartbeat.encode());

        RemotingCommand response = invoke(broker, request);

        assertThat(response.getCode()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(response.getRemark()).startsWith("skipped 2: ").contains("consumer group")
                .contains("producer group").hasSizeLessThan(1024);
        assertThat(consumersOf("CG_HB_GOOD")).contains("hb-client");
    }

    @ParameterizedTest(name = "heartbeat skips subscription {index}")
    @MethodSource("badTopics")
    void shouldSkipAGroupOfAHeartbeatThatSubscribesToABadTopic(String topic) throws Exception {
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.HEART_BEAT, null);
        request.setBody(heartbeat("hb-sub-client", "CG_BAD_SUB", topic).encode());

        RemotingCommand response = invoke(broker, request);

        assertThat(response.getCode()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(response.getRemark()).contains("subscription topic").hasSizeLessThan(1024);
        assertThat(consumersOf("CG_BAD_SUB")).isEmpty();
    }

    /** The client ids the broker lists for a group, as a consumer asks for them when it rebalances. */
    private static String consumersOf(String group) throws Exception {
        RemotingCommand response = invoke(broker, command(RequestCode.GET_CONSUMER_LIST_BY_GROUP,
                Map.of("consumerGroup", group)));
        return response.getCode() == ResponseCode.SUCCESS ? new String(response.getBody(), StandardCharsets.UTF_8)
                : "";
    }

    @ParameterizedTest(name = "locks leave out topic {index}")
    @MethodSource("badTopics")
    void shouldLockNoQueueOfABadTopic(String topic) throws Exception {
        RemotingCommand response = invoke(broker, lock(RequestCode.LOCK_BATCH_MQ, GOOD_GROUP, topic));

        assertThat(response.getCode()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(LockBatchResponseBody.decode(response.getBody(), LockBatchResponseBody.class).getLockOKMQSet())
                .isEmpty();
    }

    @ParameterizedTest(name = "registration leaves out topic {index}")
    @MethodSource("badTopics")
    void shouldRouteNoBadTopicABrokerRegisters(String topic) throws Exception {
        RemotingCommand response = invoke(namesrv, registerBroker("broker-names", "DefaultCluster",
                Map.of(topic, TopicConfig.of(topic, 4), "TopicFine", TopicConfig.of("TopicFine", 4))));

        if (topic.length() > 50_000) {
            // a JSON key this long is refused by the body's parser: the whole registration, with the reason
            assertThat(response.getCode()).isEqualTo(ResponseCode.SYSTEM_ERROR);
            assertThat(response.getRemark()).contains("malformed RegisterBrokerBody").hasSizeLessThan(1024);
            return;
        }
        assertThat(response.getCode()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(response.getRemark()).contains("1 topics not routed").contains("1 with invalid names");
        assertThat(invoke(namesrv, route("TopicFine")).getCode()).isEqualTo(ResponseCode.SUCCESS);
    }

    /** Runs last: whatever the other tests sent, the broker kept only valid names and still serves. */
    @Test
    @Order(Integer.MAX_VALUE)
    void shouldKeepOnlyValidNamesAndStillServe() throws Exception {
        assertThat(ferry.server().broker().stats().health().processorFailures()).isZero();
        assertThat(ferry.server().broker().stats().health().badRequests()).isGreaterThan(100);
        assertThat(invoke(broker, send(RequestCode.SEND_MESSAGE_V2, "PG_NAMES", GOOD_TOPIC)).getCode())
                .isEqualTo(ResponseCode.SUCCESS);
        ferry.close(); // persists every table

        BodyCodec json = new BodyCodec();
        Path config = ferry.server().broker().store().config().storeDir().getParent().resolve("config");
        assertThat(keys(json, config.resolve("topics.json"), "topicConfigTable"))
                .allSatisfy(topic -> assertThat(NameRules.topicProblem(topic)).isNull());
        assertThat(keys(json, config.resolve("subscriptionGroup.json"), "subscriptionGroupTable"))
                .allSatisfy(group -> assertThat(NameRules.groupProblem(group)).isNull());
        try (Stream<Path> queues = Files.list(ferry.server().broker().store().config().storeDir()
                .resolve("consumequeue"))) {
            assertThat(queues.map(p -> p.getFileName().toString()))
                    .allSatisfy(name -> assertThat(NameRules.hasOnlyAllowedCharacters(name.replace("~", ""))).isTrue());
        }
    }

    @SuppressWarnings("unchecked")
    private static Set<String> keys(BodyCodec json, Path file, String table) throws IOException {
        Map<String, Object> content = json.decode(Files.readAllBytes(file), Map.class);
        return new HashSet<>(((Map<String, Object>) content.get(table)).keySet());
    }

    private static RemotingCommand invoke(String address, RemotingCommand request) throws Exception {
        return raw.invokeSync(address, request, 15_000);
    }

    private static RemotingCommand command(int code, Map<String, String> fields) {
        RemotingCommand request = RemotingCommand.createRequestCommand(code, null);
        fields.forEach(request::addExtField);
        return request;
    }

    private static RemotingCommand send(int code, String group, String topic) {
        RemotingCommand request = command(code, Map.of("a", group, "b", topic, "c", "TBW102", "d", "4", "e", "0",
                "f", "0", "g", Long.toString(System.currentTimeMillis()), "h", "0", "i", "", "m",
                Boolean.toString(code == RequestCode.SEND_BATCH_MESSAGE)));
        request.setBody("body".getBytes(StandardCharsets.UTF_8));
        return request;
    }

    private static RemotingCommand pull(String group, String topic, int code) {
        Map<String, String> fields = new java.util.HashMap<>(Map.of("consumerGroup", group, "topic", topic,
                "queueId", "0", "queueOffset", "0", "maxMsgNums", "32", "sysFlag", "4", "commitOffset", "0"));
        fields.putAll(Map.of("suspendTimeoutMillis", "0", "subVersion", "0", "subscription", "*", "expressionType",
                "TAG"));
        return command(code, fields);
    }

    private static RemotingCommand offsetQuery(String group, String topic) {
        return command(RequestCode.QUERY_CONSUMER_OFFSET, Map.of("consumerGroup", group, "topic", topic, "queueId",
                "0"));
    }

    private static RemotingCommand offsetCommit(String group, String topic, int queueId, long offset) {
        return command(RequestCode.UPDATE_CONSUMER_OFFSET, Map.of("consumerGroup", group, "topic", topic, "queueId",
                Integer.toString(queueId), "commitOffset", Long.toString(offset)));
    }

    private static RemotingCommand queueRequest(int code, String topic) {
        return command(code, Map.of("topic", topic, "queueId", "0", "timestamp", "0"));
    }

    private static RemotingCommand query(String topic) {
        return command(RequestCode.QUERY_MESSAGE, Map.of("topic", topic, "key", "k", "maxNum", "32",
                "beginTimestamp", "0", "endTimestamp", Long.toString(Long.MAX_VALUE)));
    }

    private static RemotingCommand sendBack(String group) {
        return command(RequestCode.CONSUMER_SEND_MSG_BACK, Map.of("offset", "0", "group", group, "delayLevel",
                "-1", "maxReconsumeTimes", "16"));
    }

    private static RemotingCommand unregister(String group) {
        return command(RequestCode.UNREGISTER_CLIENT, Map.of("clientID", "client-1", "consumerGroup", group));
    }

    private static RemotingCommand endTransaction(String group) {
        return command(RequestCode.END_TRANSACTION, Map.of("producerGroup", group, "tranStateTableOffset", "0",
                "commitLogOffset", "0", "commitOrRollback", "8", "fromTransactionCheck", "false", "msgId", "m1"));
    }

    private static RemotingCommand consumerList(String group) {
        return command(RequestCode.GET_CONSUMER_LIST_BY_GROUP, Map.of("consumerGroup", group));
    }

    private static RemotingCommand route(String topic) {
        return command(RequestCode.GET_ROUTEINFO_BY_TOPIC, Map.of("topic", topic));
    }

    private static RemotingCommand lock(int code, String group, String topic) {
        LockBatchRequestBody body = new LockBatchRequestBody();
        body.setConsumerGroup(group);
        body.setClientId("client-1");
        body.setMqSet(new HashSet<>(List.of(new MessageQueue(topic, "broker-a", 0))));
        RemotingCommand request = RemotingCommand.createRequestCommand(code, null);
        request.setBody(body.encode());
        return request;
    }

    private static RemotingCommand checkClientConfig(String group, String topic) {
        CheckClientRequestBody body = new CheckClientRequestBody();
        body.setClientId("client-1");
        body.setGroup(group);
        SubscriptionData subscription = new SubscriptionData(topic, "*");
        body.setSubscriptionData(subscription);
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.CHECK_CLIENT_CONFIG, null);
        request.setBody(body.encode());
        return request;
    }

    private static RemotingCommand registerBroker(String brokerName, String cluster, Map<String, TopicConfig> topics) {
        RemotingCommand request = command(RequestCode.REGISTER_BROKER, Map.of("brokerName", brokerName,
                "brokerAddr", "127.0.0.1:1", "clusterName", cluster, "haServerAddr", "", "brokerId", "0"));
        request.setBody(new BodyCodec().encode(new RegisterBrokerBody(new TopicConfigSerializeWrapper(topics,
                new DataVersion(0, 1, 1)), List.of())));
        return request;
    }

    private static RemotingCommand unregisterBroker(String brokerName) {
        return command(RequestCode.UNREGISTER_BROKER, Map.of("brokerName", brokerName, "brokerAddr", "127.0.0.1:1",
                "clusterName", "DefaultCluster", "brokerId", "0"));
    }

    private static HeartbeatData heartbeat(String clientId, String group, String topic) {
        HeartbeatData heartbeat = new HeartbeatData();
        heartbeat.setClientID(clientId);
        heartbeat.getConsumerDataSet().add(consumerData(group, topic));
        return heartbeat;
    }

    private static ConsumerData consumerData(String group, String topic) {
        ConsumerData consumer = new ConsumerData();
        consumer.setGroupName(group);
        consumer.setConsumeType(ConsumeType.CONSUME_PASSIVELY);
        consumer.setMessageModel(MessageModel.CLUSTERING);
        consumer.getSubscriptionDataSet().add(new SubscriptionData(topic, "*"));
        return consumer;
    }
}
