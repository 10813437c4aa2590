package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.api.Message;
import dev.ferry.api.ReceivedMessage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.body.CMResult;
import org.apache.rocketmq.remoting.protocol.body.ConsumeMessageDirectlyResult;
import org.apache.rocketmq.remoting.protocol.body.ConsumerRunningInfo;
import org.apache.rocketmq.remoting.protocol.heartbeat.ConsumeType;
import org.apache.rocketmq.remoting.protocol.heartbeat.SubscriptionData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What Apache's admin tools ask a consumer through its broker, answered by Ferry's client as Apache's client answers
 * it: running info (what consumerStatus prints and analyses), offsets, an offset reset by time, a message consumed
 * directly. Runs against Apache 5.3.3 and against ferry-server.
 */
class AdminAnswersTest extends AgainstCluster {
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

    private static Message message(String topic, int i) {
        return Message.builder(topic).body(("m" + i).getBytes(StandardCharsets.UTF_8)).keys("k" + i).build();
    }

    @Test
    void runningInfoOffsetsResetAndDirectConsumptionWorkForAFerryConsumer() throws Exception {
        String topic = ClientTestSupport.unique("AdminAnswers");
        String group = ClientTestSupport.unique("CG");
        Producer producer = producer();
        for (int i = 0; i < 6; i++) {
            producer.send(message(topic, i));
        }
        List<ReceivedMessage> received = new CopyOnWriteArrayList<>();
        PushConsumer consumer = client.pushConsumer(PushConsumerConfig.builder(group).subscribe(topic, "*")
                .consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).build(), received::add);
        await().atMost(WAIT).until(() -> received.size() >= 6);
        String clientId = client.clientId();

        // consumerStatus: running info with what Apache's analysis reads
        ConsumerRunningInfo info = admin.getConsumerRunningInfo(group, clientId, false);
        assertThat(info.getProperties().getProperty(ConsumerRunningInfo.PROP_CONSUME_TYPE))
                .isEqualTo(ConsumeType.CONSUME_PASSIVELY.name());
        assertThat(Long.parseLong(info.getProperties().getProperty(ConsumerRunningInfo.PROP_CONSUMER_START_TIMESTAMP)))
                .isPositive();
        assertThat(info.getSubscriptionSet()).extracting(SubscriptionData::getTopic).contains(topic);
        assertThat(info.getMqTable().keySet()).extracting(MessageQueue::getTopic).contains(topic);
        await().atMost(WAIT).until(() -> admin.getConsumerRunningInfo(group, clientId, false).getMqTable()
                .entrySet().stream().filter(e -> e.getKey().getTopic().equals(topic))
                .mapToLong(e -> e.getValue().getCommitOffset()).sum() == 6);
        assertThat(ConsumerRunningInfo.analyzeProcessQueue(clientId, info)).isEmpty();
        assertThat(admin.getConsumerRunningInfo(group, clientId, true).getJstack()).contains("Thread", "at ");

        // the broker asks the client for its offsets
        Map<String, Map<MessageQueue, Long>> status = admin.getConsumeStatus(topic, group, "");
        assertThat(status).containsKey(clientId);
        assertThat(status.get(clientId).values().stream().mapToLong(Long::longValue).sum()).isEqualTo(6);

        // a message consumed directly reaches the listener once more and is not committed again
        String msgId = received.get(0).msgId();
        int before = received.size();
        ConsumeMessageDirectlyResult direct = admin.consumeMessageDirectly(group, clientId, topic, msgId);
        assertThat(direct.getConsumeResult()).isEqualTo(CMResult.CR_SUCCESS);
        assertThat(received).hasSize(before + 1);
        assertThat(received.get(before).msgId()).isEqualTo(msgId);

        // resetOffsetByTime to the start: every message is consumed again
        received.clear();
        admin.resetOffsetByTimestamp(topic, group, 0, true);
        await().atMost(WAIT).until(() -> received.stream().map(ReceivedMessage::msgId).distinct().count() == 6);
        consumer.close();
    }
}
