package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.api.Message;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.api.SendResult;
import dev.ferry.server.cli.FerryServerCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code ferry-server admin} over RocketMQ's own protocol: topic and group create/delete, progress, offset reset by
 * time, message lookup by key and id. Runs against Apache 5.3.3 and against ferry-server.
 */
class AdminCliTest extends AgainstCluster {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private DefaultMQAdminExt admin;

    @BeforeAll
    void startAdmin() throws Exception {
        admin = ClientTestSupport.admin(cluster);
    }

    @AfterAll
    void stopAdmin() {
        admin.shutdown();
    }

    /** Runs {@code ferry-server admin ...} against the cluster; returns its output, failing on a non-zero exit. */
    private String admin(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] all = new String[args.length + 3];
        all[0] = "admin";
        System.arraycopy(args, 0, all, 1, args.length);
        all[args.length + 1] = "--namesrv";
        all[args.length + 2] = cluster.nameServerAddress();
        int exit = new CommandLine(new FerryServerCommand()).setOut(new PrintWriter(out))
                .setErr(new PrintWriter(err)).execute(all);
        assertThat(exit).as("exit code of %s; stderr: %s", List.of(args), err).isZero();
        return out.toString();
    }

    private String anyBroker() throws Exception {
        return admin.examineBrokerClusterInfo().getBrokerAddrTable().values().iterator().next().getBrokerAddrs()
                .get(0L);
    }

    @Test
    void topicsGroupsOffsetsAndMessagesAreAdministeredOverTheProtocol() throws Exception {
        String topic = ClientTestSupport.unique("CliTopic");
        String group = ClientTestSupport.unique("CG");

        assertThat(admin("topic", "create", topic, "--queues", "2")).contains("created topic " + topic);
        await().atMost(WAIT).ignoreExceptions().until(() ->
                admin.examineTopicRouteInfo(topic).getQueueDatas().get(0).getWriteQueueNums() == 2);

        assertThat(admin("group", "create", group, "--retry-max-times", "3")).contains("set group " + group);
        assertThat(admin.examineSubscriptionGroupConfig(anyBroker(), group).getRetryMaxTimes()).isEqualTo(3);

        Producer producer = producer();
        SendResult first = null;
        for (int i = 0; i < 4; i++) {
            SendResult sent = producer.send(Message.builder(topic).keys("order-" + i)
                    .body(("body-" + i).getBytes(StandardCharsets.UTF_8)).build());
            first = first == null ? sent : first;
        }
        String firstId = first.msgId();
        // the broker finds by key what it has indexed, which follows the send by a moment
        await().atMost(WAIT).until(() -> admin("message", "by-key", topic, "order-0").contains("1 messages"));
        assertThat(admin("message", "by-key", topic, "order-0")).contains(firstId);
        assertThat(admin("message", "by-id", topic, firstId)).contains("body-0").contains("order-0");
        assertThat(admin("message", "by-id", topic, first.offsetMsgId())).contains("body-0");

        List<ReceivedMessage> received = new CopyOnWriteArrayList<>();
        PushConsumer consumer = client.pushConsumer(PushConsumerConfig.builder(group).subscribe(topic, "*")
                .consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).build(), received::add);
        await().atMost(WAIT).until(() -> received.size() >= 4);
        await().atMost(WAIT).until(() -> admin("offset", "progress", group, "--topic", topic)
                .contains("total lag 0") && admin("offset", "progress", group, "--topic", topic).contains(topic));

        received.clear();
        assertThat(admin("offset", "reset", group, topic, "--to", "0")).contains("reset group " + group);
        await().atMost(WAIT).until(() -> received.stream().map(ReceivedMessage::msgId).distinct().count() == 4);
        consumer.close();

        assertThat(admin("group", "delete", group, "--remove-offsets")).contains("deleted group " + group);
        assertThat(admin.examineSubscriptionGroupConfig(anyBroker(), group)).isNull();
        assertThat(admin("topic", "delete", topic)).contains("deleted topic " + topic + " from name server");
        assertThat(admin.fetchAllTopicList().getTopicList()).doesNotContain(topic);
    }

    @Test
    void aRefusalEndsTheCommandWithTheServersReason() {
        StringWriter err = new StringWriter();
        int exit = new CommandLine(new FerryServerCommand()).setOut(new PrintWriter(new StringWriter()))
                .setErr(new PrintWriter(err)).execute("admin", "topic", "create", "SCHEDULE_TOPIC_XXXX",
                        "--namesrv", cluster.nameServerAddress());
        assertThat(exit).isEqualTo(1);
        assertThat(err.toString()).contains("UPDATE_AND_CREATE_TOPIC").contains("system topic");
    }
}
