package dev.ferry.server.apache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.remoting.Credentials;
import dev.ferry.remoting.testing.ClientShutdowns;
import dev.ferry.server.auth.AuthConfig;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.sysflag.MessageSysFlag;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.netty.NettyRequestProcessor;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeaderV2;
import org.apache.rocketmq.remoting.protocol.header.SendMessageResponseHeader;
import org.apache.rocketmq.remoting.protocol.heartbeat.HeartbeatData;
import org.apache.rocketmq.remoting.protocol.heartbeat.ProducerData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ACL by what a message is, where Ferry is stricter than Apache 5.3.3: requests that name a message only by its
 * commit-log offset or id, retry and dead-letter topics pulled under another group's name, and the all-offsets codes.
 * Mallory may use only her own topics and groups ({@code notes*}); Victor owns {@code payroll*}; Peggy may read every
 * topic, but only through her own groups ({@code peggy*}). Each refusal is shown with the owner's request served.
 */
@Tag("integration")
class MessageAccessControlTest {
    private static final String ADMIN = "rocketmq";
    private static final String ADMIN_PASSWORD = "12345678";
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    static Path dir;
    private static FerryServerFixture ferry;
    private static String broker;
    private static DefaultMQAdminExt admin;
    private static final Map<String, NettyRemotingClient> CLIENTS = new ConcurrentHashMap<>();

    @BeforeAll
    static void start() throws Exception {
        ferry = new FerryServerFixture(FerryServerFixture.small(dir.resolve("store")).auth(new AuthConfig(true, true,
                Optional.of(new Credentials(ADMIN, ADMIN_PASSWORD)), Optional.empty()))
                .transactionChecks(Duration.ofMillis(300), 1_000).build()); // check-backs come quickly
        broker = "127.0.0.1:" + ferry.server().brokerPort();
        admin = new DefaultMQAdminExt(new AclClientRPCHook(new SessionCredentials(ADMIN,
                ADMIN_PASSWORD)));
        admin.setNamesrvAddr(ferry.nameServer());
        admin.setInstanceName("message-acl-admin" + System.nanoTime());
        admin.start(); // shut down with the other clients after all tests
        admin.createUser(broker, "mallory", "mallory-pass", "Normal");
        admin.createAcl(broker, "User:mallory", List.of("Topic:notes*", "Group:notes*"),
                List.of("Pub", "Sub", "Get"), null, "Allow");
        admin.createUser(broker, "victor", "victor-pass", "Normal");
        admin.createAcl(broker, "User:victor", List.of("Topic:payroll*", "Group:payroll*",
                "Topic:%DLQ%payroll*"), List.of("Pub", "Sub", "Get"), null, "Allow");
        admin.createUser(broker, "peggy", "peggy-pass", "Normal");
        admin.createAcl(broker, "User:peggy", List.of("Topic:*"), List.of("Sub", "Get"), null, "Allow");
        admin.updateAcl(broker, "User:peggy", List.of("Group:peggy*"), List.of("Sub"), null, "Allow");
        admin.createUser(broker, "olive", "olive-pass", "Normal");
        admin.createAcl(broker, "User:olive", List.of("Cluster:DefaultCluster"), List.of("Get"), null, "Allow");
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

    @Test
    void shouldRefuseAViewByOffsetOfAnotherTopicsMessageWhateverTopicTheRequestNames() throws Exception {
        long payroll = offsetOf(send("victor", "payroll-view", "salaries", ""));
        long notes = offsetOf(send("mallory", "notes-view", "my note", ""));

        for (RemotingCommand view : List.of(view(payroll, null), view(payroll, "notes-view"))) {
            RemotingCommand refused = invoke(view, "mallory");
            assertThat(refused.getCode()).as(refused.getRemark()).isEqualTo(ResponseCode.NO_PERMISSION);
            assertThat(refused.getRemark()).isEqualTo("User:mallory has no permission to access Topic:payroll-view"
                    + " from 127.0.0.1, no matched policies.");
            assertThat(refused.getBody()).isNull();
        }

        assertThat(viewed(invoke(view(notes, null), "mallory")).getTopic()).isEqualTo("notes-view");
        MessageExt owners = viewed(invoke(view(payroll, "payroll-view"), "victor"));
        assertThat(new String(owners.getBody(), StandardCharsets.UTF_8)).isEqualTo("salaries");
    }

    @Test
    void shouldRefuseConsumingDirectlyAMessageOfAnotherTopicById() throws Exception {
        String payroll = send("victor", "payroll-direct", "salaries", "").getMsgId();
        String notes = send("mallory", "notes-direct", "my note", "").getMsgId();

        RemotingCommand refused = invoke(consumeDirectly("notes-direct-readers", payroll), "mallory");
        assertThat(refused.getCode()).as(refused.getRemark()).isEqualTo(ResponseCode.NO_PERMISSION);
        assertThat(refused.getRemark()).isEqualTo("User:mallory has no permission to access Topic:payroll-direct"
                + " from 127.0.0.1, no matched policies.");

        // her own message passes the check and goes on to the client, which is not there
        RemotingCommand own = invoke(consumeDirectly("notes-direct-readers", notes), "mallory");
        assertThat(own.getCode()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(own.getRemark()).isEqualTo("The Consumer notes-direct-readers mallory-client not online");
    }

    @Test
    void shouldRefuseAPullOfAnotherGroupsRetryOrDeadLetterTopicUnderTheUsersOwnGroup() throws Exception {
        long payroll = offsetOf(send("victor", "payroll-pull", "salaries", ""));
        send(ADMIN, "%RETRY%payroll-pull-readers", "retried salaries", "");
        assertThat(invoke(sendBack("payroll-pull-readers", payroll, -1), "victor").getCode())
                .as("to the DLQ at once").isEqualTo(ResponseCode.SUCCESS);

        RemotingCommand retry = invoke(pull("notes-pull-readers", "%RETRY%payroll-pull-readers"), "mallory");
        assertThat(retry.getCode()).isEqualTo(ResponseCode.NO_PERMISSION);
        assertThat(retry.getRemark()).isEqualTo("User:mallory has no permission to access Group:payroll-pull-readers"
                + " from 127.0.0.1, no matched policies.");
        // Sub on every topic is not enough: a retry or dead-letter topic needs the group it belongs to
        for (String topic : List.of("%RETRY%payroll-pull-readers", "%DLQ%payroll-pull-readers")) {
            RemotingCommand refused = invoke(pull("peggy-readers", topic), "peggy");
            assertThat(refused.getCode()).as(topic).isEqualTo(ResponseCode.NO_PERMISSION);
            assertThat(refused.getRemark()).isEqualTo("User:peggy has no permission to access"
                    + " Group:payroll-pull-readers from 127.0.0.1, no matched policies.");
        }

        assertThat(pulledBodies("victor", "payroll-pull-readers", "%RETRY%payroll-pull-readers"))
                .containsExactly("retried salaries");
        assertThat(pulledBodies("victor", "payroll-pull-readers", "%DLQ%payroll-pull-readers"))
                .containsExactly("salaries");
        // and her own retry topic, under her own group, as before
        assertThat(invoke(pull("notes-pull-readers", "%RETRY%notes-pull-readers"), "mallory").getCode())
                .isNotEqualTo(ResponseCode.NO_PERMISSION);
    }

    @Test
    void shouldRefuseASendBackOfAnotherTopicsMessageAndCopyNothingIntoTheUsersRetryTopic() throws Exception {
        long payroll = offsetOf(send("victor", "payroll-back", "salaries", ""));
        long othersRetry = offsetOf(send(ADMIN, "%RETRY%payroll-back-readers", "retried salaries", ""));
        long notes = offsetOf(send("mallory", "notes-back", "my note", ""));

        RemotingCommand refused = invoke(sendBack("notes-back-readers", payroll, 1), "mallory");
        assertThat(refused.getCode()).isEqualTo(ResponseCode.NO_PERMISSION);
        assertThat(refused.getRemark()).isEqualTo("User:mallory has no permission to access Topic:payroll-back"
                + " from 127.0.0.1, no matched policies.");
        RemotingCommand retried = invoke(sendBack("notes-back-readers", othersRetry, 1), "mallory");
        assertThat(retried.getCode()).isEqualTo(ResponseCode.NO_PERMISSION);
        assertThat(retried.getRemark()).isEqualTo("User:mallory has no permission to access"
                + " Group:payroll-back-readers from 127.0.0.1, no matched policies.");

        // her own message goes back, and it is all her retry topic ever holds
        assertThat(invoke(sendBack("notes-back-readers", notes, 1), "mallory").getCode())
                .isEqualTo(ResponseCode.SUCCESS);
        List<MessageExt> copies = pulled("mallory", "notes-back-readers", "%RETRY%notes-back-readers");
        assertThat(copies).extracting(m -> new String(m.getBody(), StandardCharsets.UTF_8))
                .containsExactly("my note");
        // and a copy in her group's retry topic, of a topic she may read, goes back again
        assertThat(copies.get(0).getProperty(MessageConst.PROPERTY_RETRY_TOPIC)).isEqualTo("notes-back");
        assertThat(invoke(sendBack("notes-back-readers", copies.get(0).getCommitLogOffset(), 1), "mallory")
                .getCode()).isEqualTo(ResponseCode.SUCCESS);
    }

    @Test
    void shouldRefuseEndingAnotherProducersTransactionWithoutPubOnItsTopic() throws Exception {
        SendMessageResponseHeader half = send("victor", "payroll-tx", "pending raise", transactional("PG_victor"),
                MessageSysFlag.TRANSACTION_PREPARED_TYPE);
        long halfOffset = offsetOf(half);

        for (String namedTopic : new String[] {null, "notes-tx"}) {
            RemotingCommand refused = invoke(endTransaction("PG_victor", half.getQueueOffset(), halfOffset,
                    namedTopic), "mallory");
            assertThat(refused.getCode()).as(refused.getRemark()).isEqualTo(ResponseCode.NO_PERMISSION);
            assertThat(refused.getRemark()).isEqualTo("User:mallory has no permission to access Topic:payroll-tx"
                    + " from 127.0.0.1, no matched policies.");
        }
        assertThat(ferry.server().broker().store().nextOffset("payroll-tx", half.getQueueId())).isZero();

        // still undecided: its producer commits it
        RemotingCommand committed = invoke(endTransaction("PG_victor", half.getQueueOffset(), halfOffset,
                null), "victor");
        assertThat(committed.getCode()).as(committed.getRemark()).isEqualTo(ResponseCode.SUCCESS);
        await().atMost(TIMEOUT).until(() -> ferry.server().broker().store().nextOffset("payroll-tx",
                half.getQueueId()) == 1);

        // and she ends her own
        SendMessageResponseHeader own = send("mallory", "notes-tx", "my pending note", transactional("PG_mallory"),
                MessageSysFlag.TRANSACTION_PREPARED_TYPE);
        RemotingCommand ownEnd = invoke(endTransaction("PG_mallory", own.getQueueOffset(), offsetOf(own), null),
                "mallory");
        assertThat(ownEnd.getCode()).as(ownEnd.getRemark()).isEqualTo(ResponseCode.SUCCESS);
    }

    @Test
    void shouldAnswerTheAllOffsetsCodesOnlyToWhoMayGetTheCluster() throws Exception {
        for (int code : new int[] {RequestCode.GET_ALL_CONSUMER_OFFSET, RequestCode.GET_ALL_DELAY_OFFSET,
                RequestCode.GET_TIMER_CHECK_POINT}) {
            RemotingCommand refused = invoke(RemotingCommand.createRequestCommand(code, null), "mallory");
            assertThat(refused.getCode()).as("code %d", code).isEqualTo(ResponseCode.NO_PERMISSION);
            assertThat(refused.getRemark()).isEqualTo("User:mallory has no permission to access"
                    + " Cluster:DefaultCluster from 127.0.0.1, no matched policies.");
            assertThat(refused.getBody()).isNull();
            for (String user : List.of(ADMIN, "olive")) {
                RemotingCommand answered = invoke(RemotingCommand.createRequestCommand(code, null), user);
                assertThat(answered.getCode()).as("code %d for %s", code, user).isEqualTo(ResponseCode.SUCCESS);
                assertThat(answered.getBody()).isNotEmpty();
            }
        }
    }

    @Test
    void shouldSendAHalfMessageToBeCheckedOnlyToProducerConnectionsWhoseUserMayEndIt() throws Exception {
        List<String> victorsChecks = new CopyOnWriteArrayList<>();
        List<String> mallorysChecks = new CopyOnWriteArrayList<>();
        producerConnection("victor", "payroll-checked-tx", victorsChecks);
        producerConnection("mallory", "payroll-checked-tx", mallorysChecks); // joins Victor's producer group

        send("victor", "payroll-checked", "bonuses", transactional("payroll-checked-tx"),
                MessageSysFlag.TRANSACTION_PREPARED_TYPE);

        // each check goes to one connection of the group, picked at random: with both eligible, Mallory would get
        // about half of them (none of 10 by chance: 1 in 1,024)
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(victorsChecks).hasSizeGreaterThanOrEqualTo(10)
                .as("mallory: %s", mallorysChecks));
        assertThat(victorsChecks).containsOnly("payroll-checked");
        assertThat(mallorysChecks).isEmpty();
    }

    /**
     * A connection signed by {@code user} that joins {@code producerGroup} with a heartbeat and records the topic of
     * every half message the broker sends it to check, answering nothing (the transaction stays undecided).
     */
    private static void producerConnection(String user, String producerGroup, List<String> checks)
            throws Exception {
        NettyRemotingClient client = new NettyRemotingClient(new NettyClientConfig());
        client.registerRPCHook(new AclClientRPCHook(new SessionCredentials(user, user + "-pass")));
        client.registerProcessor(RequestCode.CHECK_TRANSACTION_STATE, new NettyRequestProcessor() {
            @Override
            public RemotingCommand processRequest(io.netty.channel.ChannelHandlerContext ctx,
                                                  RemotingCommand request) {
                checks.add(request.getExtFields().get("topic"));
                return null;
            }

            @Override
            public boolean rejectRequest() {
                return false;
            }
        }, null);
        client.start();
        CLIENTS.put(user + "@" + producerGroup, client);
        HeartbeatData heartbeat = new HeartbeatData();
        heartbeat.setClientID(user + "-producer");
        heartbeat.getProducerDataSet().add(producerData(producerGroup));
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.HEART_BEAT, null);
        request.setBody(heartbeat.encode());
        RemotingCommand answer = client.invokeSync(broker, request, 5000);
        assertThat(answer.getCode()).as(answer.getRemark()).isEqualTo(ResponseCode.SUCCESS);
    }

    private static ProducerData producerData(String group) {
        ProducerData data = new ProducerData();
        data.setGroupName(group);
        return data;
    }

    private static String transactional(String producerGroup) {
        return MessageDecoder.messageProperties2String(Map.of(MessageConst.PROPERTY_TRANSACTION_PREPARED, "true",
                MessageConst.PROPERTY_PRODUCER_GROUP, producerGroup));
    }

    private static SendMessageResponseHeader send(String user, String topic, String body, String properties)
            throws Exception {
        return send(user, topic, body, properties, 0);
    }

    /** Sends one message to queue 0 of {@code topic} (created as it is sent) and waits for it to be readable. */
    private static SendMessageResponseHeader send(String user, String topic, String body, String properties,
                                                  int sysFlag) throws Exception {
        SendMessageRequestHeader header = new SendMessageRequestHeader();
        header.setProducerGroup("PG_" + user);
        header.setTopic(topic);
        header.setDefaultTopic("TBW102");
        header.setDefaultTopicQueueNums(1);
        header.setQueueId(0);
        header.setSysFlag(sysFlag);
        header.setBornTimestamp(System.currentTimeMillis());
        header.setFlag(0);
        header.setProperties(properties);
        header.setReconsumeTimes(0);
        header.setUnitMode(false);
        header.setBatch(false);
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.SEND_MESSAGE_V2,
                SendMessageRequestHeaderV2.createSendMessageRequestHeaderV2(header));
        request.setBody(body.getBytes(StandardCharsets.UTF_8));
        RemotingCommand response = invoke(request, user);
        assertThat(response.getCode()).as(response.getRemark()).isEqualTo(ResponseCode.SUCCESS);
        SendMessageResponseHeader sent = response.decodeCommandCustomHeader(SendMessageResponseHeader.class);
        long offset = offsetOf(sent);
        await().atMost(TIMEOUT).until(() -> ferry.server().broker().store().dispatchedOffset() > offset);
        return sent;
    }

    /** The commit-log offset an answer's offset message id names. */
    private static long offsetOf(SendMessageResponseHeader sent) throws Exception {
        return MessageDecoder.decodeMessageId(sent.getMsgId()).getOffset();
    }

    private static RemotingCommand view(long offset, String topic) {
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.VIEW_MESSAGE_BY_ID, null);
        request.addExtField("offset", Long.toString(offset));
        if (topic != null) {
            request.addExtField("topic", topic);
        }
        return request;
    }

    private static MessageExt viewed(RemotingCommand response) {
        assertThat(response.getCode()).as(response.getRemark()).isEqualTo(ResponseCode.SUCCESS);
        return MessageDecoder.decode(ByteBuffer.wrap(response.getBody()));
    }

    private static RemotingCommand consumeDirectly(String group, String msgId) {
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.CONSUME_MESSAGE_DIRECTLY, null);
        request.addExtField("consumerGroup", group);
        request.addExtField("clientId", "mallory-client");
        request.addExtField("msgId", msgId);
        request.addExtField("brokerName", "broker-a");
        return request;
    }

    private static RemotingCommand pull(String group, String topic) {
        return RemotingCommand.createRequestCommand(RequestCode.PULL_MESSAGE,
                ApacheClients.rawPull(group, topic, "TAG", "*"));
    }

    /** What {@code user} pulls from queue 0 of {@code topic} under {@code group}, once there is something. */
    private static List<MessageExt> pulled(String user, String group, String topic) {
        return await().atMost(TIMEOUT).until(() -> {
            RemotingCommand response = invoke(pull(group, topic), user);
            assertThat(response.getCode()).as(response.getRemark()).isNotEqualTo(ResponseCode.NO_PERMISSION);
            return response.getCode() == ResponseCode.SUCCESS
                    ? MessageDecoder.decodes(ByteBuffer.wrap(response.getBody())) : null;
        }, found -> found != null && !found.isEmpty());
    }

    private static List<String> pulledBodies(String user, String group, String topic) {
        return pulled(user, group, topic).stream().map(m -> new String(m.getBody(), StandardCharsets.UTF_8))
                .toList();
    }

    private static RemotingCommand sendBack(String group, long offset, int delayLevel) {
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.CONSUMER_SEND_MSG_BACK, null);
        Map<String, String> fields = new HashMap<>(Map.of("offset", Long.toString(offset), "group", group,
                "delayLevel", Integer.toString(delayLevel), "maxReconsumeTimes", "16"));
        fields.forEach(request::addExtField);
        return request;
    }

    private static RemotingCommand endTransaction(String producerGroup, long queueOffset, long commitLogOffset,
                                                  String topic) {
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.END_TRANSACTION, null);
        request.addExtField("producerGroup", producerGroup);
        request.addExtField("tranStateTableOffset", Long.toString(queueOffset));
        request.addExtField("commitLogOffset", Long.toString(commitLogOffset));
        request.addExtField("commitOrRollback", Integer.toString(MessageSysFlag.TRANSACTION_COMMIT_TYPE));
        request.addExtField("fromTransactionCheck", "false");
        request.addExtField("msgId", "m1");
        if (topic != null) {
            request.addExtField("topic", topic);
        }
        return request;
    }

    /** Sends {@code request} signed by {@code user} (password: the name and {@code -pass}; the admin's own). */
    private static RemotingCommand invoke(RemotingCommand request, String user) throws Exception {
        NettyRemotingClient client = CLIENTS.computeIfAbsent(user, name -> {
            NettyRemotingClient created = new NettyRemotingClient(new NettyClientConfig());
            created.registerRPCHook(new AclClientRPCHook(new SessionCredentials(name,
                    name.equals(ADMIN) ? ADMIN_PASSWORD : name + "-pass")));
            created.start();
            return created;
        });
        return client.invokeSync(broker, request, 5000);
    }
}
