package dev.ferry.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.format.Clock;
import dev.ferry.remoting.Credentials;
import dev.ferry.remoting.testing.ClientShutdowns;
import dev.ferry.server.FerryServer;
import dev.ferry.server.FerryServerConfig;
import dev.ferry.server.auth.AuthConfig;
import dev.ferry.server.auth.AuthUser;
import dev.ferry.server.auth.UserStatus;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.consumer.rebalance.AllocateMessageQueueAveragely;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code ferry-server admin} against a ferry-server with authentication and authorization on: every subcommand signs
 * every request, with credentials from the environment or from a credentials file, and a refusal is one line.
 */
@Tag("integration")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SecuredAdminCommandTest {
    private static final String ADMIN = "rocketmq";
    private static final String ADMIN_PASSWORD = "12345678";
    private static final String TOPIC = "TopicSecuredAdmin";
    private static final String GROUP = "CG_SECURED_ADMIN";
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    static Path dir;
    private FerryServer server;
    private String broker;
    private SendResult first;

    /** What a run printed and how it ended. */
    record Run(int exit, String out, String err) {
    }

    @BeforeAll
    void start() throws Exception {
        FerryServerConfig config = FerryServerConfig.builder(dir.resolve("store")).namesrvPort(0).brokerPort(0)
                .commitLogSegmentSize(8 * 1024 * 1024)
                .auth(new AuthConfig(true, true, Optional.of(new Credentials(ADMIN, ADMIN_PASSWORD)),
                        Optional.empty()))
                .build();
        server = new FerryServer(config, Clock.system(), new DefaultThreadFactory("secured-admin", true)).start();
        broker = "127.0.0.1:" + server.brokerPort();
        sendAndConsume();
    }

    @AfterAll
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** Five messages with keys, consumed by {@value #GROUP}, whose offsets are committed: lag and progress exist. */
    private void sendAndConsume() throws Exception {
        AclClientRPCHook hook = new AclClientRPCHook(new SessionCredentials(ADMIN, ADMIN_PASSWORD));
        DefaultMQProducer producer = new DefaultMQProducer("PG_SECURED_ADMIN", hook);
        producer.setNamesrvAddr(server.nameServerAddress());
        producer.setInstanceName("secured-admin-producer" + System.nanoTime());
        producer.start();
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(GROUP, hook, new AllocateMessageQueueAveragely());
        try {
            for (int i = 0; i < 5; i++) {
                Message message = new Message(TOPIC, "T", ("body-" + i).getBytes(StandardCharsets.UTF_8));
                message.setKeys("order-" + i);
                SendResult sent = producer.send(message);
                if (i == 0) {
                    first = sent;
                }
            }
            ConcurrentLinkedQueue<String> received = new ConcurrentLinkedQueue<>();
            consumer.setNamesrvAddr(server.nameServerAddress());
            consumer.setInstanceName("secured-admin-consumer" + System.nanoTime());
            consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
            consumer.setPersistConsumerOffsetInterval(500);
            consumer.subscribe(TOPIC, "*");
            consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
                messages.forEach(m -> received.add(new String(m.getBody(), StandardCharsets.UTF_8)));
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
            consumer.start();
            await().atMost(WAIT).until(() -> received.size() >= 5);
            await().atMost(WAIT).until(() -> signed("offset", "progress", GROUP, "--topic", TOPIC).out()
                    .contains("total lag 0"));
        } finally {
            ClientShutdowns.together(consumer::shutdown, producer::shutdown);
        }
    }

    /** {@code admin ARGS} with {@code environment} as the process's environment and no name server by default. */
    private Run admin(Map<String, String> environment, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = new CommandLine(new AdminCommand(environment::get, "127.0.0.1:1"))
                .setOut(new PrintWriter(out)).setErr(new PrintWriter(err)).execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    /** The super user's credentials in the environment, the name server given. */
    private Run signed(String... args) {
        return admin(Map.of("FERRY_ADMIN_SECRET_KEY", ADMIN_PASSWORD), withNameServer("--access-key", ADMIN, args));
    }

    private String[] withNameServer(String first, String second, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--namesrv", server.nameServerAddress(), first, second));
        return all.toArray(String[]::new);
    }

    private static String succeeded(Run run) {
        assertThat(run.exit()).as("exit code; stderr: %s", run.err()).isZero();
        assertThat(run.err()).isEmpty();
        return run.out();
    }

    /** Exit code 1, one line on standard error, nothing on standard output. */
    private static String refused(Run run) {
        assertThat(run.exit()).as("exit code; stdout: %s", run.out()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err().lines()).hasSize(1);
        assertThat(run.err()).doesNotContain("Exception").doesNotContain("\tat ");
        return run.err().strip();
    }

    @Test
    void shouldSignTheCounterCommandsWithTheUserAndSecretOfTheEnvironment() {
        Map<String, String> environment = Map.of("FERRY_ADMIN_ACCESS_KEY", ADMIN,
                "FERRY_ADMIN_SECRET_KEY", ADMIN_PASSWORD, "NAMESRV_ADDR", server.nameServerAddress());

        assertThat(succeeded(admin(environment, "topics"))).contains(TOPIC);
        assertThat(succeeded(admin(environment, "topics", "--broker", broker))).contains(TOPIC);
        assertThat(succeeded(admin(environment, "groups"))).contains(GROUP);
        assertThat(succeeded(admin(environment, "lag", GROUP))).contains(TOPIC);
        assertThat(succeeded(admin(environment, "health"))).contains("broker broker-a");
        assertThat(succeeded(admin(environment, "health", "--broker", broker))).contains("bad requests refused");
    }

    @Test
    void shouldSignTopicGroupOffsetAndMessageCommands() {
        assertThat(succeeded(signed("topic", "create", "TopicMadeSigned", "--queues", "2")))
                .contains("created topic TopicMadeSigned on " + broker);
        assertThat(succeeded(signed("group", "create", "CG_MADE_SIGNED", "--retry-max-times", "3")))
                .contains("set group CG_MADE_SIGNED on " + broker);
        assertThat(succeeded(signed("message", "by-key", TOPIC, "order-0"))).contains(first.getMsgId())
                .contains("1 messages");
        assertThat(succeeded(signed("message", "by-id", TOPIC, first.getMsgId()))).contains("body-0");
        assertThat(succeeded(signed("offset", "progress", GROUP, "--topic", TOPIC))).contains("total lag 0");
        assertThat(succeeded(signed("offset", "reset", GROUP, TOPIC, "--to", "0")))
                .contains("reset group " + GROUP + " on " + TOPIC);
        assertThat(succeeded(signed("group", "delete", "CG_MADE_SIGNED")))
                .contains("deleted group CG_MADE_SIGNED from " + broker);
        assertThat(succeeded(signed("topic", "delete", "TopicMadeSigned")))
                .contains("deleted topic TopicMadeSigned from name server " + server.nameServerAddress());
    }

    @Test
    void shouldMoveGivenQueuesOfAGroupToGivenOffsets() {
        String brokerName = first.getMessageQueue().getBrokerName();
        int queueId = first.getMessageQueue().getQueueId();
        String before = committedOffset(brokerName, queueId);

        String reset = succeeded(signed("offset", "reset", GROUP, TOPIC, "--offset", brokerName + ":" + queueId
                + "=1"));

        try {
            assertThat(reset).contains("reset group " + GROUP + " on " + TOPIC + " to the offsets given")
                    .containsPattern(brokerName + "\\s+" + queueId + "\\s+1\\n");
            assertThat(committedOffset(brokerName, queueId)).isEqualTo("1");
        } finally {
            // the other tests see the group as it was
            succeeded(signed("offset", "reset", GROUP, TOPIC, "--offset", brokerName + ":" + queueId + "=" + before));
        }
        Run neither = signed("offset", "reset", GROUP, TOPIC);
        assertThat(neither.exit()).isEqualTo(2);
        assertThat(neither.err()).contains("give either --to or --offset");
        Run bad = signed("offset", "reset", GROUP, TOPIC, "--offset", "broker-a=3");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).contains("expected BROKER:QUEUE=OFFSET");
    }

    /** The group's committed offset of one queue, as {@code offset progress} prints it. */
    private String committedOffset(String brokerName, int queueId) {
        String progress = succeeded(signed("offset", "progress", GROUP, "--topic", TOPIC));
        String row = progress.lines().filter(line -> line.startsWith(TOPIC + " ")
                && line.split("\\s+")[1].equals(brokerName) && line.split("\\s+")[2].equals(Integer.toString(queueId)))
                .findFirst().orElseThrow(() -> new AssertionError("no row of queue " + queueId + " in " + progress));
        return row.split("\\s+")[4];
    }

    @Test
    void shouldManageUsersAndTheirAccessPolicies() {
        Map<String, String> environment = Map.of("FERRY_ADMIN_SECRET_KEY", ADMIN_PASSWORD,
                "FERRY_ADMIN_USER_PASSWORD", "alice-pass");
        String[] create = withNameServer("--access-key", ADMIN, "user", "create", "alice");
        assertThat(succeeded(admin(environment, create))).isEqualTo("created user alice on " + broker + "\n");
        assertThat(server.authMetadata().user("alice")).map(AuthUser::password).hasValue("alice-pass");

        assertThat(row(succeeded(signed("user", "list")), "alice")).isEqualTo(broker + " alice Normal enable");
        assertThat(succeeded(signed("user", "list", "--filter", "ali"))).doesNotContain(ADMIN + " ");
        assertThat(row(succeeded(signed("user", "get", ADMIN)), ADMIN)).isEqualTo(broker + " rocketmq Super enable");
        assertThat(succeeded(signed("user", "update", "alice", "--status", "disable")))
                .isEqualTo("updated user alice on " + broker + "\n");
        assertThat(server.authMetadata().user("alice")).map(AuthUser::status).hasValue(UserStatus.DISABLE);
        assertThat(succeeded(signed("user", "list"))).doesNotContain("alice-pass").doesNotContain(ADMIN_PASSWORD);

        assertThat(succeeded(signed("acl", "create", "User:alice", "--resources", "Topic:orders,Group:billing",
                "--actions", "Pub,Sub", "--source-ips", "127.0.0.1", "--decision", "Allow")))
                .isEqualTo("created acl of User:alice on " + broker + "\n");
        assertThat(succeeded(signed("acl", "update", "User:alice", "--resources", "Topic:audit", "--actions", "Sub",
                "--decision", "Deny"))).isEqualTo("updated acl of User:alice on " + broker + "\n");
        String acl = succeeded(signed("acl", "get", "User:alice"));
        assertThat(row(acl, "Topic:orders")).isEqualTo(broker + " User:alice Custom Topic:orders Pub,Sub 127.0.0.1 "
                + "Allow");
        assertThat(row(acl, "Group:billing")).isEqualTo(broker + " User:alice Custom Group:billing Pub,Sub 127.0.0.1 "
                + "Allow");
        assertThat(row(acl, "Topic:audit")).isEqualTo(broker + " User:alice Custom Topic:audit Sub - Deny");
        String onlyTopics = succeeded(signed("acl", "list", "--resource", "Topic:"));
        assertThat(onlyTopics).contains("Topic:orders").doesNotContain("Group:billing");
        assertThat(succeeded(signed("acl", "list", "--subject", "nobody")).lines()).hasSize(1);

        assertThat(succeeded(signed("acl", "delete", "User:alice", "--resource", "Topic:audit")))
                .isEqualTo("deleted acl of User:alice on Topic:audit from " + broker + "\n");
        assertThat(succeeded(signed("acl", "get", "User:alice"))).doesNotContain("Topic:audit")
                .contains("Topic:orders");
        assertThat(succeeded(signed("acl", "delete", "User:alice"))).contains("deleted acl of User:alice from");
        assertThat(succeeded(signed("user", "delete", "alice"))).isEqualTo("deleted user alice from " + broker + "\n");
        assertThat(server.authMetadata().user("alice")).isEmpty();
        assertThat(refused(signed("user", "get", "alice"))).isEqualTo("broker " + broker + " has no user alice");
    }

    @Test
    void shouldRefuseEachUnsignedCommandWithOneLineAndExitCodeOne() {
        String nameServer = "name server " + server.nameServerAddress();
        String theBroker = "broker " + broker;
        // routes are public, as on Apache's name server: what needs a route is refused by the broker
        Map<List<String>, String> firstRefused = Map.of(List.of("topics"), nameServer + " GET_BROKER_CLUSTER_INFO",
                List.of("groups"), nameServer + " GET_BROKER_CLUSTER_INFO",
                List.of("lag", GROUP), nameServer + " GET_BROKER_CLUSTER_INFO",
                List.of("health"), nameServer + " GET_BROKER_CLUSTER_INFO",
                List.of("topic", "create", "TopicUnsigned"), nameServer + " GET_BROKER_CLUSTER_INFO",
                List.of("offset", "progress", GROUP), theBroker + " GET_CONSUME_STATS",
                List.of("message", "by-key", TOPIC, "order-0"), theBroker + " QUERY_MESSAGE",
                List.of("user", "list"), nameServer + " GET_BROKER_CLUSTER_INFO",
                List.of("acl", "list"), nameServer + " GET_BROKER_CLUSTER_INFO");
        Map<List<String>, String> refusals = new HashMap<>();
        firstRefused.keySet().forEach(command -> {
            List<String> args = new ArrayList<>(command);
            args.addAll(List.of("--namesrv", server.nameServerAddress()));
            refusals.put(command, refused(admin(Map.of(), args.toArray(String[]::new))));
        });
        firstRefused.forEach((command, request) -> assertThat(refusals.get(command)).as("%s", command)
                .isEqualTo(request.replaceFirst(" (\\S+)$", " answered NO_PERMISSION to $1")
                        + ": username cannot be null."));
        assertThat(refused(admin(Map.of(), "user", "list", "--broker", broker)))
                .isEqualTo("broker " + broker + " answered NO_PERMISSION to AUTH_LIST_USER: username cannot be null.");
    }

    @Test
    void shouldRefuseAWrongSecretWithOneLine() {
        Run run = admin(Map.of("FERRY_ADMIN_ACCESS_KEY", ADMIN, "FERRY_ADMIN_SECRET_KEY", "wrong"),
                "health", "--broker", broker);

        assertThat(refused(run)).isEqualTo("broker " + broker + " answered NO_PERMISSION to FERRY_GET_BROKER_STATS: "
                + "check signature failed.");
        assertThat(run.err()).doesNotContain("wrong");
    }

    @Test
    void shouldSayWithoutATableHeaderThatNoBrokerKnowsAGroup() {
        assertThat(refused(signed("lag", "CG_NOBODY_KNOWS"))).isEqualTo("no broker knows the consumer group "
                + "CG_NOBODY_KNOWS");
    }

    @Test
    void shouldSignWithTheCredentialsFileRocketMqToolsRead() throws Exception {
        Path tools = Files.writeString(dir.resolve("tools.yml"), "accessKey: " + ADMIN + "\nsecretKey: "
                + ADMIN_PASSWORD + "\n");

        String users = succeeded(admin(Map.of(), withNameServer("--credentials", tools.toString(), "user", "list")));

        assertThat(row(users, ADMIN)).isEqualTo(broker + " rocketmq Super enable");
    }

    @Test
    void shouldStopWithOneLineAndExitCodeTwoWhenTheCredentialsFileIsUnusable() throws Exception {
        Path malformed = Files.writeString(dir.resolve("malformed.yml"), "accessKey rocketmq\n");
        Path missing = dir.resolve("missing.yml");

        assertThat(unusable(malformed)).isEqualTo("credentials file " + malformed + " line 1 is not 'key: value'");
        assertThat(unusable(missing)).isEqualTo("cannot read credentials file " + missing + ": no such file");
    }

    /** The one line of a run with credentials {@code file} that ended with exit code 2 and printed nothing else. */
    private String unusable(Path file) {
        Run run = admin(Map.of(), withNameServer("--credentials", file.toString(), "topics"));
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err().lines()).hasSize(1);
        return run.err().strip();
    }

    @Test
    void shouldOfferNoOptionForAPasswordOnTheCommandLine() {
        Run run = admin(Map.of(), withNameServer("--access-key", ADMIN, "topics", "--secret-key", ADMIN_PASSWORD));

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).startsWith("Unknown options: '--secret-key'");
        assertThat(new CommandLine(new AdminCommand()).getCommandSpec().subcommands().values().stream()
                .flatMap(sub -> sub.getCommandSpec().options().stream()).flatMap(o -> List.of(o.names()).stream()))
                .doesNotContain("--secret-key", "--secret", "--password-value");
    }

    @Test
    void shouldAskTheDefaultNameServerWhenNoneIsGiven() {
        Map<String, String> credentials = Map.of("FERRY_ADMIN_ACCESS_KEY", ADMIN, "FERRY_ADMIN_SECRET_KEY",
                ADMIN_PASSWORD);
        StringWriter out = new StringWriter();
        int exit = new CommandLine(new AdminCommand(credentials::get, server.nameServerAddress()))
                .setOut(new PrintWriter(out)).execute("topics");

        assertThat(exit).isZero();
        assertThat(out.toString()).contains(TOPIC);
        Map<String, String> withNamesrvAddr = new HashMap<>(credentials);
        withNamesrvAddr.put("NAMESRV_ADDR", server.nameServerAddress());
        assertThat(succeeded(admin(withNamesrvAddr, "topics"))).contains(TOPIC);
        assertThat(refused(admin(credentials, "topics")))
                .startsWith("cannot connect to 127.0.0.1:1: Connection refused");
    }

    /** A row's cells with blanks folded, found by one of its cells. */
    private static String row(String output, String cell) {
        for (String line : output.split("\\R")) {
            List<String> cells = List.of(line.trim().split("\\s+"));
            if (cells.contains(cell)) {
                return String.join(" ", cells);
            }
        }
        throw new AssertionError("no row with " + cell + " in:\n" + output);
    }
}
