package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.ManualClock;
import dev.ferry.format.SysFlags;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.body.TopicConfig;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Queue;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InlineSendsTest {
    @TempDir
    Path dir;
    private final Queue<Runnable> waiting = new ArrayDeque<>();
    private final SendLane lane = new SendLane(waiting::add);
    private InlineSends rule;

    @BeforeEach
    void setUp() {
        TopicConfigTable topics = new TopicConfigTable(dir, new ManualClock(0), 100);
        topics.putIfAbsent(TopicConfig.of("T", 4));
        topics.putIfAbsent(TopicConfig.of("%RETRY%G", 1));
        rule = new InlineSends(lane, topics);
    }

    /** A send as Apache's producer encodes it by default: SEND_MESSAGE_V2, short field names. */
    private static RemotingCommand.Builder sendV2(String topic, int sysFlag) {
        return RemotingCommand.request(RequestCode.SEND_MESSAGE_V2).extField("a", "PG").extField("b", topic)
                .extField("c", "TBW102").extField("e", "0").extField("f", Integer.toString(sysFlag));
    }

    private static RemotingCommand.Builder sendV1(String topic, int sysFlag) {
        return RemotingCommand.request(RequestCode.SEND_MESSAGE).extField("producerGroup", "PG")
                .extField("topic", topic).extField("defaultTopic", "TBW102").extField("queueId", "0")
                .extField("sysFlag", Integer.toString(sysFlag));
    }

    @Test
    void shouldInlineOneMessageToAKnownTopicWhileTheLaneIsIdle() {
        assertThat(rule.inline(sendV2("T", 0).build())).isTrue();
        assertThat(rule.inline(sendV1("T", 0).build())).isTrue();
        assertThat(rule.inline(sendV2("T", 0).extField("m", "false").build())).as("batch flag false").isTrue();
        assertThat(rule.inline(sendV2("T", SysFlags.TRANSACTION_COMMIT_TYPE).build()))
                .as("a transactional message sent already committed").isTrue();
    }

    @Test
    void shouldQueueBehindASendWaitingOrRunningInTheLane() {
        lane.execute(() -> { });

        assertThat(rule.inline(sendV2("T", 0).build())).isFalse();
        waiting.poll().run();
        assertThat(rule.inline(sendV2("T", 0).build())).isTrue();
    }

    @Test
    void shouldQueueWhatMayWriteAFileOrDecodeWithoutBound() {
        assertThat(rule.inline(sendV2("New", 0).build())).as("a topic to create").isFalse();
        assertThat(rule.inline(sendV2("%RETRY%G", 0).build())).as("a retry topic's group").isFalse();
        assertThat(rule.inline(sendV2("T", SysFlags.TRANSACTION_PREPARED_TYPE).build())).as("a half message")
                .isFalse();
        assertThat(rule.inline(sendV2("T", 0).extField("m", "true").build())).as("a batch").isFalse();
        assertThat(rule.inline(sendV1("T", 0).extField("batch", "true").build())).as("a batch").isFalse();
        assertThat(rule.inline(RemotingCommand.request(RequestCode.SEND_BATCH_MESSAGE).extField("b", "T")
                .extField("f", "0").build())).as("SEND_BATCH_MESSAGE").isFalse();
        assertThat(rule.inline(RemotingCommand.request(RequestCode.CONSUMER_SEND_MSG_BACK).build())).isFalse();
    }

    @Test
    void shouldQueueSendsItCannotRead() {
        assertThat(rule.inline(sendV2("T", 0).extField("f", null).build())).as("no sysFlag").isFalse();
        assertThat(rule.inline(sendV1("T", 0).extField("topic", null).build())).as("no topic").isFalse();
    }
}
