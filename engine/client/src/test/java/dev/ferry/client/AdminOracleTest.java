package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.api.Message;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.admin.TopicStatsTable;
import org.apache.rocketmq.remoting.protocol.body.KVTable;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.assertj.core.api.ThrowableAssert;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The admin answers whose exact form tools depend on, checked against Apache 5.3.3 (the oracle) and against
 * ferry-server with the same assertions: refusal codes, the runtime keys clusterList parses, topic statistics.
 */
class AdminOracleTest extends AgainstCluster {
    private DefaultMQAdminExt admin;
    private String broker;

    @BeforeAll
    void startAdmin() throws Exception {
        admin = ClientTestSupport.admin(cluster);
        broker = admin.examineBrokerClusterInfo().getBrokerAddrTable().values().iterator().next().getBrokerAddrs()
                .get(0L);
    }

    @AfterAll
    void stopAdmin() {
        admin.shutdown();
    }

    /** The response code a failing admin call carried. */
    private static int codeOf(ThrowableAssert.ThrowingCallable call) {
        Throwable[] thrown = new Throwable[1];
        assertThatThrownBy(() -> {
            try {
                call.call();
            } catch (Throwable t) {
                thrown[0] = t;
                throw t;
            }
        }).isInstanceOfAny(MQBrokerException.class, MQClientException.class);
        return thrown[0] instanceof MQBrokerException b ? b.getResponseCode()
                : ((MQClientException) thrown[0]).getResponseCode();
    }

    @Test
    void refusalsCarryApachesCodes() {
        assertThat(codeOf(() -> admin.createAndUpdateTopicConfig(broker, new TopicConfig("SCHEDULE_TOPIC_XXXX", 1, 1,
                6)))).isEqualTo(ResponseCode.INVALID_PARAMETER);
        TopicConfig unknownAttribute = new TopicConfig(ClientTestSupport.unique("Attr"), 1, 1, 6);
        unknownAttribute.setAttributes(Map.of("+no.such.key", "x"));
        assertThat(codeOf(() -> admin.createAndUpdateTopicConfig(broker, unknownAttribute)))
                .isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(codeOf(() -> admin.examineTopicConfig(broker, ClientTestSupport.unique("Missing"))))
                .isEqualTo(ResponseCode.TOPIC_NOT_EXIST);
        assertThat(codeOf(() -> admin.examineConsumerConnectionInfo(ClientTestSupport.unique("CG"), broker)))
                .isEqualTo(ResponseCode.CONSUMER_NOT_ONLINE);
        assertThat(codeOf(() -> admin.getKVConfig("NO_SUCH_NAMESPACE", "k"))).isEqualTo(ResponseCode.QUERY_NOT_FOUND);
        assertThat(codeOf(() -> admin.viewBrokerStatsData(broker, "TOPIC_PUT_NUMS", ClientTestSupport.unique("T"))))
                .isEqualTo(ResponseCode.SYSTEM_ERROR);
    }

    @Test
    void resetOfAnUnknownGroupOrTopicIsRefusedAsApacheRefusesIt() {
        String topic = ClientTestSupport.unique("ResetOracle");
        producer().send(Message.builder(topic).body("x".getBytes(StandardCharsets.UTF_8)).build());
        // the broker registers a topic made by a send with the name server a moment later; the reset reads its route
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
                .until(() -> admin.examineTopicRouteInfo(topic) != null);
        assertThat(codeOf(() -> admin.resetOffsetByTimestamp(topic, ClientTestSupport.unique("CG"), 0, true)))
                .isEqualTo(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST);
    }

    @Test
    void runtimeInfoHasTheKeysAndFormatsTheToolsParse() throws Exception {
        // Apache's broker fails this request until its statistics took a first sample (NoSuchElementException), and
        // leaves putTps blank until they hold eleven, a second apart: a test JVM's first class may ask that early
        KVTable runtime = await().atMost(Duration.ofSeconds(30))
                .ignoreExceptionsMatching(e -> e instanceof MQBrokerException
                        && String.valueOf(e.getMessage()).contains("NoSuchElementException"))
                .until(() -> admin.fetchBrokerRuntimeStats(broker),
                        info -> !String.valueOf(info.getTable().get("putTps")).isBlank());
        Map<String, String> table = runtime.getTable();
        assertThat(table).containsKeys("brokerVersionDesc", "brokerActive", "putTps", "getTransferredTps",
                "getTotalTps", "msgPutTotalTodayNow", "msgGetTotalTodayNow", "msgPutTotalTodayMorning",
                "msgGetTotalTodayMorning", "msgPutTotalYesterdayMorning", "msgGetTotalYesterdayMorning",
                "earliestMessageTimeStamp", "commitLogDiskRatio", "sendThreadPoolQueueSize",
                "pullThreadPoolQueueSize", "bootTimestamp", "commitLogMaxOffset", "runtime");
        Long.parseLong(table.get("earliestMessageTimeStamp"));
        Double.parseDouble(table.get("commitLogDiskRatio"));
        Double.parseDouble(table.get("putTps").split(" ")[0]);
        Long.parseLong(table.get("msgPutTotalTodayNow"));
    }

    @Test
    void topicStatsCoverEveryQueueWithItsOffsets() throws Exception {
        String topic = ClientTestSupport.unique("StatsOracle");
        admin.createAndUpdateTopicConfig(broker, new TopicConfig(topic, 3, 3, 6));
        Producer producer = producer();
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).ignoreExceptions().until(() ->
                admin.examineTopicRouteInfo(topic) != null);
        for (int i = 0; i < 3; i++) {
            producer.send(Message.builder(topic).body(("m" + i).getBytes(StandardCharsets.UTF_8)).build());
        }
        // a broker answers with what it has dispatched so far: the last send may still be on its way to its queue
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> admin
                .examineTopicStats(topic).getOffsetTable().values().stream().mapToLong(o -> o.getMaxOffset())
                .sum() == 3);
        TopicStatsTable stats = admin.examineTopicStats(topic);
        assertThat(stats.getOffsetTable()).hasSize(3);
        assertThat(stats.getOffsetTable().keySet()).extracting(q -> q.getQueueId()).containsExactlyInAnyOrder(0, 1, 2);
        assertThat(admin.queryTopicConsumeByWho(topic).getGroupList()).isEqualTo(Set.of());
    }
}
