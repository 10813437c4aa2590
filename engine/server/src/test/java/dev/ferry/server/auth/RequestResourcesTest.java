package dev.ferry.server.auth;

import static dev.ferry.server.auth.Action.GET;
import static dev.ferry.server.auth.Action.PUB;
import static dev.ferry.server.auth.Action.SUB;
import static dev.ferry.server.auth.Action.UPDATE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.MessageProperties;
import dev.ferry.format.StoredMessageCodec;
import dev.ferry.format.StoredMessageView;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What requests need: the rules that depend on what a topic or a stored message is. */
class RequestResourcesTest {
    private static final InetSocketAddress HOST = new InetSocketAddress("127.0.0.1", 10911);
    private final RequestResources resources = new RequestResources(new BodyCodec(), "DefaultCluster");

    /** Every field the codec writes, for a message as the store holds it. */
    private record Entry(int magicCode, int bodyCrc, int queueId, int flag, int sysFlag, long bornTimestamp,
                         InetSocketAddress bornHost, InetSocketAddress storeHost, int reconsumeTimes,
                         long preparedTransactionOffset, byte[] body, byte[] topicBytes, byte[] propertiesBytes,
                         int encodedLength) implements StoredMessageCodec.Encodable {
    }

    private static StoredMessageView stored(String topic, Map<String, String> properties) {
        byte[] topicBytes = topic.getBytes(StandardCharsets.UTF_8);
        byte[] propertyBytes = MessageProperties.format(properties).getBytes(StandardCharsets.UTF_8);
        byte[] body = "body".getBytes(StandardCharsets.UTF_8);
        int length = StoredMessageCodec.encodedLength(0, body.length, topicBytes.length, propertyBytes.length,
                false);
        Entry entry = new Entry(StoredMessageCodec.MAGIC_V1, StoredMessageCodec.bodyCrc(ByteBuffer.wrap(body)), 0, 0,
                0, 1L, HOST, HOST, 0, 0L, body, topicBytes, propertyBytes, length);
        ByteBuffer record = ByteBuffer.allocate(length);
        StoredMessageCodec.encode(record, 0, entry, 0, 0, 2L);
        return StoredMessageView.over(record);
    }

    private static RemotingCommand request(int code, Map<String, String> fields) {
        return RemotingCommand.request(code).extFields(fields).build();
    }

    private static RemotingCommand pull(String group, String topic) {
        return request(RequestCode.PULL_MESSAGE, Map.of("consumerGroup", group, "topic", topic));
    }

    @Test
    void shouldNeedTheGroupARetryTopicBelongsToWhenAnotherGroupPullsIt() {
        assertThat(resources.of(pull("mine", "%RETRY%theirs"))).containsExactly(
                RequiredAccess.group("theirs", SUB), RequiredAccess.group("mine", SUB));
        assertThat(resources.of(request(RequestCode.UPDATE_CONSUMER_OFFSET, Map.of("consumerGroup", "mine",
                "topic", "%RETRY%theirs")))).containsExactly(RequiredAccess.group("theirs", SUB, UPDATE),
                RequiredAccess.group("mine", SUB, UPDATE));
    }

    @Test
    void shouldNeedTheGroupOnceWhenAGroupPullsItsOwnRetryTopic() {
        assertThat(resources.of(pull("mine", "%RETRY%mine"))).containsExactly(RequiredAccess.group("mine", SUB));
    }

    @Test
    void shouldNeedTheDeadLetterTopicAndItsGroupWhenPulled() {
        assertThat(resources.of(pull("mine", "%DLQ%theirs"))).containsExactly(
                RequiredAccess.topic("%DLQ%theirs", SUB), RequiredAccess.group("theirs", SUB),
                RequiredAccess.group("mine", SUB));
    }

    @Test
    void shouldNeedTheTopicAndTheGroupWhenAPlainTopicIsPulled() {
        assertThat(resources.of(pull("mine", "orders"))).containsExactly(RequiredAccess.topic("orders", SUB),
                RequiredAccess.group("mine", SUB));
    }

    @Test
    void shouldNeedTheClustersGetForEveryOffsetAndTheDelayAndTimerProgress() {
        for (int code : new int[] {RequestCode.GET_ALL_CONSUMER_OFFSET, RequestCode.GET_ALL_DELAY_OFFSET,
                RequestCode.GET_TIMER_CHECK_POINT}) {
            assertThat(resources.of(request(code, Map.of()))).as("code %d", code)
                    .containsExactly(RequiredAccess.cluster("DefaultCluster", GET));
        }
    }

    @Test
    void shouldNeedGetOnTheTopicOfTheMessageViewedWhateverTopicTheRequestNames() {
        RemotingCommand view = request(RequestCode.VIEW_MESSAGE_BY_ID, Map.of("offset", "0", "topic", "mine"));
        assertThat(resources.ofMessage(view, stored("payroll", Map.of())))
                .containsExactly(RequiredAccess.topic("payroll", GET));
        assertThat(resources.ofMessage(view, stored("%RETRY%theirs", Map.of())))
                .containsExactly(RequiredAccess.group("theirs", GET));
        assertThat(resources.ofMessage(view, stored("%DLQ%theirs", Map.of())))
                .containsExactly(RequiredAccess.topic("%DLQ%theirs", GET), RequiredAccess.group("theirs", GET));
        RemotingCommand direct = request(RequestCode.CONSUME_MESSAGE_DIRECTLY, Map.of("consumerGroup", "mine"));
        assertThat(resources.ofMessage(direct, stored("payroll", Map.of())))
                .containsExactly(RequiredAccess.topic("payroll", GET));
    }

    @Test
    void shouldNeedSubOnTheMessageSentBackAndOnTheTopicARetriedCopyCameFrom() {
        RemotingCommand back = request(RequestCode.CONSUMER_SEND_MSG_BACK, Map.of("group", "mine", "offset", "0"));
        assertThat(resources.ofMessage(back, stored("payroll", Map.of())))
                .containsExactly(RequiredAccess.topic("payroll", SUB));
        assertThat(resources.ofMessage(back, stored("%RETRY%mine",
                Map.of(MessageProperties.RETRY_TOPIC, "payroll")))).containsExactly(
                RequiredAccess.group("mine", SUB), RequiredAccess.topic("payroll", SUB));
        assertThat(resources.ofMessage(back, stored("%DLQ%theirs",
                Map.of(MessageProperties.RETRY_TOPIC, "payroll")))).containsExactly(
                RequiredAccess.topic("%DLQ%theirs", SUB), RequiredAccess.group("theirs", SUB),
                RequiredAccess.topic("payroll", SUB));
    }

    @Test
    void shouldIgnoreARetryTopicPropertyOutsideRetryTopicsOrNamingNoTopicWhenSentBack() {
        RemotingCommand back = request(RequestCode.CONSUMER_SEND_MSG_BACK, Map.of("group", "mine", "offset", "0"));
        // a producer's own property on a plain topic says nothing about where the message came from
        assertThat(resources.ofMessage(back, stored("notes", Map.of(MessageProperties.RETRY_TOPIC, "payroll"))))
                .containsExactly(RequiredAccess.topic("notes", SUB));
        assertThat(resources.ofMessage(back, stored("%RETRY%mine",
                Map.of(MessageProperties.RETRY_TOPIC, "no topic\u0007name")))).containsExactly(
                RequiredAccess.group("mine", SUB));
    }

    @Test
    void shouldNeedPubOnTheHalfMessagesRealTopicToEndItsTransaction() {
        RemotingCommand end = request(RequestCode.END_TRANSACTION, Map.of("producerGroup", "desk"));
        assertThat(resources.ofMessage(end, stored("RMQ_SYS_TRANS_HALF_TOPIC",
                Map.of(MessageProperties.REAL_TOPIC, "payroll")))).containsExactly(
                RequiredAccess.topic("payroll", PUB));
        assertThat(resources.ofMessage(end, stored("RMQ_SYS_TRANS_HALF_TOPIC",
                Map.of(MessageProperties.REAL_TOPIC, "%RETRY%theirs")))).containsExactly(
                RequiredAccess.group("theirs", SUB));
    }

    @Test
    void shouldNeedPubOnTheHalfTopicItselfWhenAHalfMessageNamesNoRealTopic() {
        RemotingCommand end = request(RequestCode.END_TRANSACTION, Map.of("producerGroup", "desk"));
        assertThat(resources.ofMessage(end, stored("RMQ_SYS_TRANS_HALF_TOPIC", Map.of())))
                .containsExactly(RequiredAccess.topic("RMQ_SYS_TRANS_HALF_TOPIC", PUB));
        assertThat(resources.ofMessage(end, stored("RMQ_SYS_TRANS_HALF_TOPIC",
                Map.of(MessageProperties.REAL_TOPIC, "bad topic")))).containsExactly(
                RequiredAccess.topic("RMQ_SYS_TRANS_HALF_TOPIC", PUB));
    }
}
