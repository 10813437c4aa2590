package dev.ferry.server.apache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ferry.remoting.Credentials;
import dev.ferry.remoting.testing.ClientShutdowns;
import dev.ferry.server.FerryServerConfig;
import dev.ferry.server.auth.AuthConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Supplier;
import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.rebalance.AllocateMessageQueueAveragely;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.body.AclInfo;
import org.apache.rocketmq.remoting.protocol.body.UserInfo;
import org.apache.rocketmq.remoting.protocol.header.ListUsersRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.QueryConsumerOffsetRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeaderV2;
import org.apache.rocketmq.remoting.protocol.header.UpdateConsumerOffsetRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.namesrv.GetRouteInfoRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.namesrv.RegisterBrokerRequestHeader;
import org.apache.rocketmq.remoting.protocol.heartbeat.ConsumeType;
import org.apache.rocketmq.remoting.protocol.heartbeat.ConsumerData;
import org.apache.rocketmq.remoting.protocol.heartbeat.HeartbeatData;
import org.apache.rocketmq.remoting.protocol.heartbeat.MessageModel;
import org.apache.rocketmq.remoting.protocol.heartbeat.SubscriptionData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ACL 2.0 on ferry-server, driven by Apache RocketMQ 5.3.3's clients: {@code AclClientRPCHook}-signed producers and
 * consumers, {@code DefaultMQAdminExt} for users and policies, and raw requests of each kind for every refusal.
 */
@Tag("integration")
class AccessControlTest {
    private static final String ADMIN = "rocketmq";
    private static final String ADMIN_PASSWORD = "12345678";
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    static Path dir;
    private static FerryServerFixture ferry;
    private static DefaultMQAdminExt admin;
    private static String broker;
    private static final Map<String, NettyRemotingClient> CLIENTS = new ConcurrentHashMap<>();

    @BeforeAll
    static void start() throws Exception {
        ferry = new FerryServerFixture(secured(dir.resolve("store")).build());
        broker = "127.0.0.1:" + ferry.server().brokerPort();
        admin = admin(ADMIN, ADMIN_PASSWORD);
        admin.createUser(broker, "alice", "alice-pass", "Normal");
        admin.createAcl(broker, "User:alice", List.of("Topic:orders", "Group:billing"), List.of("Pub", "Sub"),
                null, "Allow");
        admin.createUser(broker, "bob", "bob-pass", "Normal");
        admin.createUser(broker, "carol", "carol-pass", "Normal");
        admin.createAcl(broker, "User:carol", List.of("*"), List.of("All"), null, "Allow");
        admin.updateUser(broker, "carol", null, null, "disable");
        // the same two entries, created in opposite orders: the Deny on the topic wins for both
        admin.createUser(broker, "dave", "dave-pass", "Normal");
        admin.createAcl(broker, "User:dave", List.of("Topic:*", "Group:*"), List.of("All"), null, "Allow");
        admin.updateAcl(broker, "User:dave", List.of("Topic:orders"), List.of("Pub", "Sub"), null, "Deny");
        admin.createUser(broker, "dan", "dan-pass", "Normal");
        admin.createAcl(broker, "User:dan", List.of("Topic:orders"), List.of("Pub", "Sub"), null, "Deny");
        admin.updateAcl(broker, "User:dan", List.of("Topic:*", "Group:*"), List.of("All"), null, "Allow");
        // may read but not write, and only Get on the group
        admin.createUser(broker, "erin", "erin-pass", "Normal");
        admin.createAcl(broker, "User:erin", List.of("Topic:orders"), List.of("Sub"), null, "Allow");
        admin.updateAcl(broker, "User:erin", List.of("Group:billing"), List.of("Get"), null, "Allow");
    }

    static FerryServerConfig.Builder secured(Path store) {
        return FerryServerFixture.small(store).auth(new AuthConfig(true, true,
                Optional.of(new Credentials(ADMIN, ADMIN_PASSWORD)), Optional.empty()));
    }

    @AfterAll
    static void stop() {
        List<Runnable> shutdowns = new ArrayList<>();
        CLIENTS.values().forEach(client -> shutdowns.add(client::shutdown));
        if (admin != null) {
            shutdowns.add(admin::shutdown);
        }
        ClientShutdowns.together(shutdowns);
        if (ferry != null) {
            ferry.close();
        }
    }

    private static DefaultMQAdminExt admin(String user, String password) throws Exception {
        DefaultMQAdminExt ext = new DefaultMQAdminExt(hook(user, password));
        ext.setNamesrvAddr(ferry.nameServer());
        ext.setInstanceName("admin-" + user + System.nanoTime());
        ext.start();
        return ext;
    }

    private static RPCHook hook(String user, String password) {
        return new AclClientRPCHook(new SessionCredentials(user, password));
    }

    @Test
    void aPermittedUserSendsAndConsumesWithApachesClient() throws Exception {
        DefaultMQProducer producer = new DefaultMQProducer("order-desk", hook("alice", "alice-pass"));
        producer.setNamesrvAddr(ferry.nameServer());
        producer.setInstanceName("alice-producer" + System.nanoTime());
        producer.start();
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer("billing", hook("alice", "alice-pass"),
                new AllocateMessageQueueAveragely());
        try {
            for (int i = 0; i < 5; i++) {
                assertThat(producer.send(new Message("orders", ("order-" + i).getBytes(StandardCharsets.UTF_8)))
                        .getSendStatus()).isEqualTo(SendStatus.SEND_OK);
            }
            ConcurrentLinkedQueue<String> received = new ConcurrentLinkedQueue<>();
            consumer.setNamesrvAddr(ferry.nameServer());
            consumer.setInstanceName("alice-consumer" + System.nanoTime());
            consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
            consumer.subscribe("orders", "*");
            consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
                messages.forEach(m -> received.add(new String(m.getBody(), StandardCharsets.UTF_8)));
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
            consumer.start();
            // the topic may hold other tests' messages too: wait for these five, not for any five
            await().atMost(TIMEOUT).untilAsserted(() -> assertThat(received)
                    .contains("order-0", "order-1", "order-2", "order-3", "order-4"));
        } finally {
            ClientShutdowns.together(consumer::shutdown, producer::shutdown);
        }
    }

    /** The requests a client makes, each needing something of topic orders and group billing. */
    private static List<Supplier<RemotingCommand>> requestsOfEveryKind() {
        return List.of(AccessControlTest::send, AccessControlTest::pull, AccessControlTest::heartbeat,
                AccessControlTest::queryOffset, AccessControlTest::updateOffset);
    }

    @Test
    void anUnsignedRequestIsRefused() throws Exception {
        assertEveryKindRefused(null, null, "username cannot be null.");
    }

    @Test
    void aWrongPasswordIsRefused() throws Exception {
        assertEveryKindRefused("alice", "not-alices", "check signature failed.");
    }

    @Test
    void anUnknownUserIsRefused() throws Exception {
        assertEveryKindRefused("mallory", "whatever", "User:mallory is not found.");
    }

    @Test
    void aDisabledUserIsRefused() throws Exception {
        assertEveryKindRefused("carol", "carol-pass", "User:carol is disabled.");
    }

    @Test
    void aMatchingDenyWinsWhicheverOrderThePoliciesWereCreatedIn() throws Exception {
        for (String user : List.of("dave", "dan")) {
            for (Supplier<RemotingCommand> request : List.<Supplier<RemotingCommand>>of(AccessControlTest::send,
                    AccessControlTest::pull, AccessControlTest::heartbeat)) {
                RemotingCommand response = invoke(broker, request.get(), user, user + "-pass");
                assertThat(response.getCode()).isEqualTo(ResponseCode.NO_PERMISSION);
                assertThat(response.getRemark()).isEqualTo("User:" + user
                        + " has no permission to access Topic:orders from 127.0.0.1, the decision is deny.");
            }
            // the Allow still covers what the Deny does not name
            RemotingCommand other = invoke(broker, send("payments"), user, user + "-pass");
            assertThat(other.getCode()).as(other.getRemark()).isEqualTo(ResponseCode.SUCCESS);
        }
    }

    @Test
    void aUserWithoutTheNeededActionIsRefused() throws Exception {
        RemotingCommand sent = invoke(broker, send(), "erin", "erin-pass");
        assertThat(sent.getCode()).isEqualTo(ResponseCode.NO_PERMISSION);
        assertThat(sent.getRemark()).isEqualTo(
                "User:erin has no permission to access Topic:orders from 127.0.0.1, no matched policies.");
        for (Supplier<RemotingCommand> request : List.<Supplier<RemotingCommand>>of(AccessControlTest::pull,
                AccessControlTest::heartbeat, AccessControlTest::updateOffset)) {
            RemotingCommand response = invoke(broker, request.get(), "erin", "erin-pass");
            assertThat(response.getCode()).isEqualTo(ResponseCode.NO_PERMISSION);
            assertThat(response.getRemark()).isEqualTo(
                    "User:erin has no permission to access Group:billing from 127.0.0.1, no matched policies.");
        }
        // Get on the group and Sub on the topic: an offset query is allowed
        RemotingCommand query = invoke(broker, queryOffset(), "erin", "erin-pass");
        assertThat(query.getCode()).isNotEqualTo(ResponseCode.NO_PERMISSION);
        // and a normal user may not manage users
        RemotingCommand listUsers = invoke(broker, RemotingCommand.createRequestCommand(RequestCode.AUTH_LIST_USER,
                new ListUsersRequestHeader()), "alice", "alice-pass");
        assertThat(listUsers.getCode()).isEqualTo(ResponseCode.NO_PERMISSION);
        assertThat(listUsers.getRemark()).isEqualTo("User:alice has no permission to access Cluster:DefaultCluster"
                + " from 127.0.0.1, no matched policies.");
    }

    @Test
    void theNameServerRefusesUnsignedRegistrationsButAnswersRouteQueriesAsApachesDoes() throws Exception {
        RegisterBrokerRequestHeader header = new RegisterBrokerRequestHeader();
        header.setBrokerName("intruder");
        header.setBrokerAddr("127.0.0.1:1");
        header.setClusterName("DefaultCluster");
        header.setHaServerAddr("127.0.0.1:2");
        header.setBrokerId(0L);
        RemotingCommand register = RemotingCommand.createRequestCommand(RequestCode.REGISTER_BROKER, header);
        RemotingCommand refused = invoke(ferry.nameServer(), register, null, null);
        assertThat(refused.getCode()).isEqualTo(ResponseCode.NO_PERMISSION);
        assertThat(refused.getRemark()).isEqualTo("username cannot be null.");
        RemotingCommand byNormalUser = invoke(ferry.nameServer(), RemotingCommand.createRequestCommand(
                RequestCode.REGISTER_BROKER, header), "alice", "alice-pass");
        assertThat(byNormalUser.getRemark()).isEqualTo(
                "User:alice has no permission to access Cluster:DefaultCluster from 127.0.0.1, no matched policies.");
        assertThat(ferry.server().nameServer().routes().route("intruder")).isNull();
        // the broker's own registration, signed with its credentials, went through
        assertThat(ferry.server().nameServer().routes().route("TBW102")).isNotNull();
        assertThat(invoke(ferry.nameServer(), routeQuery("TBW102"), null, null).getCode())
                .as("an unsigned route query").isEqualTo(ResponseCode.SUCCESS);
    }

    private static RemotingCommand routeQuery(String topic) {
        GetRouteInfoRequestHeader route = new GetRouteInfoRequestHeader();
        route.setTopic(topic);
        return RemotingCommand.createRequestCommand(RequestCode.GET_ROUTEINFO_BY_TOPIC, route);
    }

    @Test
    void apachesProducerWithBadCredentialsOrNoPermissionIsToldByTheBrokerWhoAndWhat() throws Exception {
        List<Runnable> shutdowns = new ArrayList<>();
        try {
            assertSendRefused(shutdowns, null, null, "username cannot be null.");
            assertSendRefused(shutdowns, "alice", "not-alices", "check signature failed.");
            assertSendRefused(shutdowns, "mallory", "whatever", "User:mallory is not found.");
            assertSendRefused(shutdowns, "erin", "erin-pass",
                    "User:erin has no permission to access Topic:orders from 127.0.0.1, no matched policies.");
        } finally {
            ClientShutdowns.together(shutdowns);
        }
    }

    /**
     * What Apache's producer throws when it sends to orders as {@code user} (unsigned when null); the producer's
     * shutdown is added to {@code shutdowns}.
     */
    private static void assertSendRefused(List<Runnable> shutdowns, String user, String password, String remark)
            throws Exception {
        DefaultMQProducer producer = user == null ? new DefaultMQProducer("order-desk")
                : new DefaultMQProducer("order-desk", hook(user, password));
        producer.setNamesrvAddr(ferry.nameServer());
        producer.setInstanceName("refused-" + user + System.nanoTime());
        producer.setRetryTimesWhenSendFailed(0);
        producer.start();
        shutdowns.add(producer::shutdown);
        assertThatThrownBy(() -> producer.send(new Message("orders", "x".getBytes(StandardCharsets.UTF_8))))
                .as("a send by %s", user)
                .satisfies(e -> {
                    MQBrokerException refusal = e instanceof MQBrokerException broker ? broker
                            : (MQBrokerException) e.getCause();
                    assertThat(refusal.getResponseCode()).isEqualTo(ResponseCode.NO_PERMISSION);
                    assertThat(refusal.getErrorMessage()).isEqualTo(remark);
                });
    }

    @Test
    void theNameServerRefusesUnsignedRouteQueriesWhenAskedToAuthenticateThem() throws Exception {
        Path store = dir.resolve("routes-authenticated");
        try (FerryServerFixture guarded = new FerryServerFixture(secured(store)
                .nameServer(n -> n.authenticateRouteQueries(true)).build())) {
            assertThat(invoke(guarded.nameServer(), routeQuery("TBW102"), null, null).getRemark())
                    .isEqualTo("username cannot be null.");
            assertThat(invoke(guarded.nameServer(), routeQuery("TBW102"), ADMIN, ADMIN_PASSWORD).getCode())
                    .isEqualTo(ResponseCode.SUCCESS);
        }
    }

    @Test
    void usersAndPoliciesAreManagedWithApachesAdminAndTakeEffectAtOnce() throws Exception {
        admin.createUser(broker, "frank", "frank-pass", "Normal");
        UserInfo frank = admin.getUser(broker, "frank");
        assertThat(frank.getUsername()).isEqualTo("frank");
        assertThat(frank.getUserType()).isEqualTo("Normal");
        assertThat(frank.getUserStatus()).isEqualTo("enable");
        assertThat(admin.listUser(broker, "fra")).extracting(UserInfo::getUsername).containsExactly("frank");
        assertThat(invoke(broker, send(), "frank", "frank-pass").getCode()).isEqualTo(ResponseCode.NO_PERMISSION);

        admin.createAcl(broker, "User:frank", List.of("Topic:order*"), List.of("Pub"), List.of("127.0.0.0/8"),
                "Allow");
        assertThat(invoke(broker, send(), "frank", "frank-pass").getCode()).isEqualTo(ResponseCode.SUCCESS);
        AclInfo acl = admin.getAcl(broker, "User:frank");
        assertThat(acl.getSubject()).isEqualTo("User:frank");
        assertThat(acl.getPolicies()).singleElement().satisfies(policy -> {
            assertThat(policy.getPolicyType()).isEqualTo("Custom");
            assertThat(policy.getEntries()).singleElement().satisfies(entry -> {
                assertThat(entry.getResource()).isEqualTo("Topic:order*");
                assertThat(entry.getActions()).containsExactly("Pub");
                assertThat(entry.getSourceIps()).containsExactly("127.0.0.0/8");
                assertThat(entry.getDecision()).isEqualTo("Allow");
            });
        });
        assertThat(admin.listAcl(broker, "frank", null)).extracting(AclInfo::getSubject)
                .containsExactly("User:frank");

        admin.deleteAcl(broker, "User:frank", "Topic:order*");
        assertThat(admin.getAcl(broker, "User:frank")).isNull();
        assertThat(invoke(broker, send(), "frank", "frank-pass").getCode()).isEqualTo(ResponseCode.NO_PERMISSION);

        admin.updateUser(broker, "frank", "new-pass", null, null);
        assertThat(invoke(broker, send(), "frank", "frank-pass").getRemark()).isEqualTo("check signature failed.");
        admin.deleteUser(broker, "frank");
        assertThat(admin.getUser(broker, "frank")).isNull();
        assertThat(invoke(broker, send(), "frank", "new-pass").getRemark()).isEqualTo("User:frank is not found.");
    }

    @Test
    void onlyASuperUserManagesUsersAndPolicies() throws Exception {
        List<Runnable> shutdowns = new ArrayList<>();
        try {
            DefaultMQAdminExt alice = admin("alice", "alice-pass");
            shutdowns.add(alice::shutdown);
            assertThatThrownBy(() -> alice.createUser(broker, "grace", "grace-pass", "Normal"))
                    .isInstanceOfSatisfying(MQBrokerException.class,
                            e -> assertThat(e.getResponseCode()).isEqualTo(ResponseCode.NO_PERMISSION));
            assertThatThrownBy(() -> alice.createAcl(broker, "User:alice", List.of("*"), List.of("All"), null,
                    "Allow")).isInstanceOf(MQBrokerException.class);
            assertThat(admin.getUser(broker, "grace")).isNull();
            // a normal user whom a policy lets update the cluster still may not: only super users manage users
            admin.createUser(broker, "helper", "helper-pass", "Normal");
            admin.createAcl(broker, "User:helper", List.of("Cluster:DefaultCluster"), List.of("Update", "Get"),
                    null, "Allow");
            DefaultMQAdminExt helper = admin("helper", "helper-pass");
            shutdowns.add(helper::shutdown);
            assertThatThrownBy(() -> helper.createUser(broker, "grace", "grace-pass", "Normal"))
                    .isInstanceOfSatisfying(MQBrokerException.class, e -> assertThat(e.getErrorMessage())
                            .contains("User:helper is not a super user"));
        } finally {
            ClientShutdowns.together(shutdowns);
        }
        assertThatThrownBy(() -> admin.createUser(broker, "alice", "other", "Normal"))
                .isInstanceOfSatisfying(MQBrokerException.class, e ->
                        assertThat(e.getErrorMessage()).contains("The user is existed"));
        assertThatThrownBy(() -> admin.createAcl(broker, "User:nobody", List.of("Topic:x"), List.of("Pub"), null,
                "Allow")).isInstanceOfSatisfying(MQBrokerException.class, e ->
                        assertThat(e.getErrorMessage()).contains("The subject of User:nobody is not exist."));
        assertThatThrownBy(() -> admin.createAcl(broker, "User:alice", List.of("Queue:x"), List.of("Pub"), null,
                "Allow")).isInstanceOfSatisfying(MQBrokerException.class, e ->
                        assertThat(e.getErrorMessage()).contains("The resource is null."));
    }

    @Test
    void usersAndPoliciesSurviveARestart() throws Exception {
        Path store = dir.resolve("restart");
        FerryServerFixture first = new FerryServerFixture(secured(store).build());
        String firstBroker = "127.0.0.1:" + first.server().brokerPort();
        DefaultMQAdminExt firstAdmin = new DefaultMQAdminExt(hook(ADMIN, ADMIN_PASSWORD));
        firstAdmin.setNamesrvAddr(first.nameServer());
        firstAdmin.setInstanceName("restart-admin" + System.nanoTime());
        firstAdmin.start();
        try {
            firstAdmin.createUser(firstBroker, "henry", "henry-pass", "Normal");
            firstAdmin.createAcl(firstBroker, "User:henry", List.of("Topic:orders"), List.of("Pub"), null,
                    "Allow");
        } finally {
            firstAdmin.shutdown();
            first.close();
        }
        try (FerryServerFixture second = new FerryServerFixture(secured(store).build())) {
            String secondBroker = "127.0.0.1:" + second.server().brokerPort();
            assertThat(second.server().authMetadata().user("henry")).isPresent();
            assertThat(invoke(secondBroker, send(), "henry", "henry-pass").getCode())
                    .isEqualTo(ResponseCode.SUCCESS);
            assertThat(invoke(secondBroker, send("payments"), "henry", "henry-pass").getCode())
                    .isEqualTo(ResponseCode.NO_PERMISSION);
        }
    }

    private static void assertEveryKindRefused(String user, String password, String remark) throws Exception {
        long refusedBefore = ferry.server().broker().refusedRequests();
        List<Supplier<RemotingCommand>> requests = requestsOfEveryKind();
        for (Supplier<RemotingCommand> request : requests) {
            RemotingCommand response = invoke(broker, request.get(), user, password);
            assertThat(response.getCode()).as(response.getRemark()).isEqualTo(ResponseCode.NO_PERMISSION);
            assertThat(response.getRemark()).isEqualTo(remark);
            if (password != null) {
                assertThat(response.getRemark()).doesNotContain(password);
            }
        }
        RemotingCommand listUsers = invoke(broker, RemotingCommand.createRequestCommand(RequestCode.AUTH_LIST_USER,
                new ListUsersRequestHeader()), user, password);
        assertThat(listUsers.getCode()).isEqualTo(ResponseCode.NO_PERMISSION);
        assertThat(listUsers.getRemark()).isEqualTo(remark);
        assertThat(ferry.server().broker().refusedRequests() - refusedBefore)
                .isGreaterThanOrEqualTo(requests.size() + 1);
    }

    /** Sends {@code request}, signed by {@code user} unless null, with a client of that user's. */
    private static RemotingCommand invoke(String address, RemotingCommand request, String user, String password)
            throws Exception {
        NettyRemotingClient client = CLIENTS.computeIfAbsent(user + "/" + password, key -> {
            NettyRemotingClient created = new NettyRemotingClient(new NettyClientConfig());
            if (user != null) {
                created.registerRPCHook(hook(user, password));
            }
            created.start();
            return created;
        });
        return client.invokeSync(address, request, 5000);
    }

    private static RemotingCommand send() {
        return send("orders");
    }

    private static RemotingCommand send(String topic) {
        SendMessageRequestHeader header = new SendMessageRequestHeader();
        header.setProducerGroup("order-desk");
        header.setTopic(topic);
        header.setDefaultTopic("TBW102");
        header.setDefaultTopicQueueNums(4);
        header.setQueueId(0);
        header.setSysFlag(0);
        header.setBornTimestamp(System.currentTimeMillis());
        header.setFlag(0);
        header.setProperties("");
        header.setReconsumeTimes(0);
        header.setUnitMode(false);
        header.setBatch(false);
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.SEND_MESSAGE_V2,
                SendMessageRequestHeaderV2.createSendMessageRequestHeaderV2(header));
        request.setBody("raw".getBytes(StandardCharsets.UTF_8));
        return request;
    }

    private static RemotingCommand pull() {
        return RemotingCommand.createRequestCommand(RequestCode.PULL_MESSAGE,
                ApacheClients.rawPull("billing", "orders", "TAG", "*"));
    }

    private static RemotingCommand heartbeat() {
        HeartbeatData heartbeat = new HeartbeatData();
        heartbeat.setClientID("acl-test");
        ConsumerData consumer = new ConsumerData();
        consumer.setGroupName("billing");
        consumer.setConsumeType(ConsumeType.CONSUME_PASSIVELY);
        consumer.setMessageModel(MessageModel.CLUSTERING);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        SubscriptionData subscription = new SubscriptionData();
        subscription.setTopic("orders");
        subscription.setSubString("*");
        consumer.getSubscriptionDataSet().add(subscription);
        heartbeat.getConsumerDataSet().add(consumer);
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.HEART_BEAT, null);
        request.setBody(heartbeat.encode());
        return request;
    }

    private static RemotingCommand queryOffset() {
        QueryConsumerOffsetRequestHeader header = new QueryConsumerOffsetRequestHeader();
        header.setConsumerGroup("billing");
        header.setTopic("orders");
        header.setQueueId(0);
        return RemotingCommand.createRequestCommand(RequestCode.QUERY_CONSUMER_OFFSET, header);
    }

    private static RemotingCommand updateOffset() {
        UpdateConsumerOffsetRequestHeader header = new UpdateConsumerOffsetRequestHeader();
        header.setConsumerGroup("billing");
        header.setTopic("orders");
        header.setQueueId(0);
        header.setCommitOffset(0L);
        return RemotingCommand.createRequestCommand(RequestCode.UPDATE_CONSUMER_OFFSET, header);
    }
}
