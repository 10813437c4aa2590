package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.api.ReceivedMessage;
import dev.ferry.format.Clock;
import dev.ferry.format.ManualClock;
import dev.ferry.format.TraceRecord;
import dev.ferry.format.UniqueMessageIds;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.apache.rocketmq.client.AccessChannel;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.trace.TraceBean;
import org.apache.rocketmq.client.trace.TraceContext;
import org.apache.rocketmq.client.trace.TraceDataEncoder;
import org.apache.rocketmq.client.trace.TraceTransferBean;
import org.apache.rocketmq.client.trace.TraceType;
import org.apache.rocketmq.common.message.MessageType;
import org.junit.jupiter.api.Test;

/**
 * Ferry's trace records against Apache RocketMQ 5.3.3's {@code TraceDataEncoder} (the oracle): for the same trace,
 * Ferry writes the text Apache's client writes, byte for byte, and Apache's decoder reads Ferry's text back.
 */
class TraceRecordOracleTest {

    @Test
    void shouldWriteAPubRecordAsApachesClientDoes() {
        TraceRecord.Pub pub = new TraceRecord.Pub(1_700_000_000_123L, "DefaultRegion", "PG_A", "TopicA",
                "7F0000010001000000000001", "TagA", "k1 k2", "127.0.0.1:10911", 42, 7,
                TraceRecord.MessageType.DELAY, "7F00000100002A9F0000000000000010", true);
        TraceContext apache = context(TraceType.Pub, 1_700_000_000_123L, "DefaultRegion", "PG_A");
        apache.setCostTime(7);
        apache.setSuccess(true);
        TraceBean bean = bean("7F0000010001000000000001", "k1 k2");
        bean.setTopic("TopicA");
        bean.setTags("TagA");
        bean.setStoreHost("127.0.0.1:10911");
        bean.setBodyLength(42);
        bean.setMsgType(MessageType.Delay_Msg);
        bean.setOffsetMsgId("7F00000100002A9F0000000000000010");
        apache.getTraceBeans().add(bean);

        assertSameAsApache(pub, apache);
        TraceContext decoded = decode(pub);
        assertThat(decoded.getTraceType()).isEqualTo(TraceType.Pub);
        assertThat(decoded.getGroupName()).isEqualTo("PG_A");
        assertThat(decoded.getTraceBeans().get(0).getMsgType()).isEqualTo(MessageType.Delay_Msg);
        assertThat(decoded.getTraceBeans().get(0).getOffsetMsgId()).isEqualTo("7F00000100002A9F0000000000000010");
        assertThat(decoded.isSuccess()).isTrue();
    }

    @Test
    void shouldWriteAbsentTagsAndKeysAsApachesClientDoes() {
        TraceRecord.Pub pub = new TraceRecord.Pub(5L, "DefaultRegion", "PG_A", "TopicA", "ID1", null, null,
                "127.0.0.1:10911", 1, 0, TraceRecord.MessageType.NORMAL, "OFF1", false);
        TraceContext apache = context(TraceType.Pub, 5L, "DefaultRegion", "PG_A");
        apache.setSuccess(false);
        TraceBean bean = bean("ID1", null);
        bean.setTags(null); // what Apache's send hook copies from a message without tags
        bean.setTopic("TopicA");
        bean.setStoreHost("127.0.0.1:10911");
        bean.setBodyLength(1);
        bean.setMsgType(MessageType.Normal_Msg);
        bean.setOffsetMsgId("OFF1");
        apache.getTraceBeans().add(bean);

        assertSameAsApache(pub, apache);
    }

    @Test
    void shouldWriteSubBeforeAndSubAfterRecordsAsApachesClientDoes() {
        TraceRecord.SubBefore before = new TraceRecord.SubBefore(1_700_000_000_200L, "DefaultRegion", "CG_A",
                "REQ1", "ID1", 3, "k1");
        TraceContext apacheBefore = context(TraceType.SubBefore, 1_700_000_000_200L, "DefaultRegion", "CG_A");
        apacheBefore.setRequestId("REQ1");
        TraceBean beforeBean = bean("ID1", "k1");
        beforeBean.setRetryTimes(3);
        apacheBefore.getTraceBeans().add(beforeBean);
        assertSameAsApache(before, apacheBefore);

        TraceRecord.SubAfter after = new TraceRecord.SubAfter("REQ1", "ID1", 12, false, "k1",
                DeliveryTraces.THREW, 1_700_000_000_212L, "CG_A");
        TraceContext apacheAfter = context(TraceType.SubAfter, 1_700_000_000_212L, "DefaultRegion", "CG_A");
        apacheAfter.setRequestId("REQ1");
        apacheAfter.setCostTime(12);
        apacheAfter.setSuccess(false);
        apacheAfter.setContextCode(2); // ConsumeReturnType.EXCEPTION
        apacheAfter.setAccessChannel(AccessChannel.LOCAL);
        apacheAfter.getTraceBeans().add(bean("ID1", "k1"));
        assertSameAsApache(after, apacheAfter);
        TraceContext decoded = decode(after);
        assertThat(decoded.getRequestId()).isEqualTo("REQ1");
        assertThat(decoded.getCostTime()).isEqualTo(12);
        assertThat(decoded.getContextCode()).isEqualTo(2);
        assertThat(decoded.getTimeStamp()).isEqualTo(1_700_000_000_212L);
        assertThat(decoded.getGroupName()).isEqualTo("CG_A");
    }

    @Test
    void shouldWriteAnEndTransactionRecordAsApachesClientDoes() {
        TraceRecord.EndTransaction end = new TraceRecord.EndTransaction(9L, "DefaultRegion", "PG_T", "TopicT", "ID9",
                "TagT", "k9", "127.0.0.1:10911", TraceRecord.MessageType.TRANSACTION_HALF, "TX9", "COMMIT_MESSAGE",
                true);
        TraceContext apache = context(TraceType.EndTransaction, 9L, "DefaultRegion", "PG_T");
        TraceBean bean = bean("ID9", "k9");
        bean.setTopic("TopicT");
        bean.setTags("TagT");
        bean.setStoreHost("127.0.0.1:10911");
        bean.setMsgType(MessageType.Trans_Msg_Half);
        bean.setTransactionId("TX9");
        bean.setTransactionState(LocalTransactionState.COMMIT_MESSAGE);
        bean.setFromTransactionCheck(true);
        apache.getTraceBeans().add(bean);

        assertSameAsApache(end, apache);
    }

    @Test
    void shouldWriteTheEndOfALocalTransactionAsApachesProducerDoes() {
        List<dev.ferry.api.Message> written = endsWritten(77L, traces -> traces.ended(dev.ferry.api.Message
                .builder("TopicT").body(new byte[1]).tags("TagT").keys("k1", "k2").build(), "ID7", "127.0.0.1:10911",
                TransactionState.ROLLBACK));
        // what Apache's EndTransactionTraceHookImpl makes of a local transaction's end: the producer's message has no
        // region, the type is a commit whatever the state, the transaction id is the message's unique key
        TraceContext apache = context(TraceType.EndTransaction, 77L, "DefaultRegion", "PG_T");
        TraceBean bean = bean("ID7", "k1 k2");
        bean.setTopic("TopicT");
        bean.setTags("TagT");
        bean.setStoreHost("127.0.0.1:10911");
        bean.setMsgType(MessageType.Trans_msg_Commit);
        bean.setTransactionId("ID7");
        bean.setTransactionState(LocalTransactionState.ROLLBACK_MESSAGE);
        bean.setFromTransactionCheck(false);
        apache.getTraceBeans().add(bean);

        assertWrittenAsApache(written, apache);
    }

    @Test
    void shouldWriteTheEndOfACheckedTransactionAsApachesProducerDoes() {
        ReceivedMessage checked = new ReceivedMessage("TopicT", new byte[1], Map.of("UNIQ_KEY", "ID8", "TAGS", "TagT",
                "MSG_REGION", "RegionB", "REAL_TOPIC", "TopicT"), "OFFSET8", "broker-a", 0, 3L, 99L, 0, 1L, 2L);
        List<dev.ferry.api.Message> written = endsWritten(78L, traces -> traces.checked(checked,
                new InetSocketAddress("127.0.0.1", 10911), TransactionState.UNKNOWN));
        TraceContext apache = context(TraceType.EndTransaction, 78L, "RegionB", "PG_T");
        TraceBean bean = bean("ID8", null);
        bean.setTopic("TopicT");
        bean.setTags("TagT");
        bean.setStoreHost("127.0.0.1:10911"); // the channel's peer, as Apache's client names it
        bean.setMsgType(MessageType.Trans_msg_Commit);
        bean.setTransactionId("ID8");
        bean.setTransactionState(LocalTransactionState.UNKNOW);
        bean.setFromTransactionCheck(true);
        apache.getTraceBeans().add(bean);

        assertWrittenAsApache(written, apache);
        TraceContext decoded = TraceDataEncoder.decoderFromTraceDataString(
                new String(written.get(0).body(), StandardCharsets.UTF_8)).get(0);
        assertThat(decoded.getTraceBeans().get(0).getTransactionState()).isEqualTo(LocalTransactionState.UNKNOW);
        assertThat(decoded.getTraceBeans().get(0).isFromTransactionCheck()).isTrue();
    }

    @Test
    void shouldTraceACheckedMessageUnderItsRealTopicWhenTheBrokerLeftTheHalfTopicOnIt() {
        ReceivedMessage checked = new ReceivedMessage("RMQ_SYS_TRANS_HALF_TOPIC", new byte[1], Map.of("UNIQ_KEY", "ID8",
                "REAL_TOPIC", "TopicT"), "OFFSET8", "broker-a", 0, 3L, 99L, 0, 1L, 2L);
        List<dev.ferry.api.Message> written = endsWritten(78L, traces -> traces.checked(checked,
                new InetSocketAddress("127.0.0.1", 10911), TransactionState.COMMIT));
        assertThat(TraceDataEncoder.decoderFromTraceDataString(new String(written.get(0).body(),
                StandardCharsets.UTF_8)).get(0).getTraceBeans().get(0).getTopic()).isEqualTo("TopicT");
    }

    @Test
    void shouldNotTraceTheEndOfATransactionOnTheTraceTopic() {
        List<dev.ferry.api.Message> written = endsWritten(1L, traces -> {
            traces.ended(dev.ferry.api.Message.builder("RMQ_SYS_TRACE_TOPIC").body(new byte[1]).build(), "ID1", null,
                    TransactionState.COMMIT);
            traces.ended(dev.ferry.api.Message.builder("TopicT").body(new byte[1]).build(), "ID2", null,
                    TransactionState.COMMIT);
        });
        assertThat(written).hasSize(1);
        assertThat(written.get(0).keys()).containsExactly("ID2");
    }

    @Test
    void shouldTraceAPollAsApachesLitePullConsumerDoesSkippingMessagesWithTraceOff() {
        List<dev.ferry.api.Message> sent = new ArrayList<>();
        TraceWriter writer = capturing(sent);
        DeliveryTraces traces = new DeliveryTraces(writer, "CG_P", new ManualClock(Instant.ofEpochMilli(50L)),
                new UniqueMessageIds(new byte[] {127, 0, 0, 1}, 1, 1,
                Clock.system(), ZoneOffset.UTC));
        traces.polled(List.of(
                new ReceivedMessage("TopicP", new byte[1], Map.of("KEYS", "k1"), "ID1", "broker-a", 0, 0L, 0L, 2, 1L,
                        2L),
                new ReceivedMessage("TopicP", new byte[1], Map.of("TRACE_ON", "false"), "ID2", "broker-a", 0, 1L, 9L,
                        0, 1L, 2L)));
        writer.flush();

        assertThat(sent).hasSize(1);
        List<TraceContext> decoded = TraceDataEncoder.decoderFromTraceDataString(
                new String(sent.get(0).body(), StandardCharsets.UTF_8));
        assertThat(decoded).extracting(TraceContext::getTraceType).containsExactly(TraceType.SubBefore,
                TraceType.SubAfter);
        String requestId = decoded.get(0).getRequestId();
        // what Apache's hooks make of a poll: a SubBefore, then a SubAfter with success, no cost, no return type (0)
        TraceContext apacheBefore = context(TraceType.SubBefore, 50L, "DefaultRegion", "CG_P");
        apacheBefore.setRequestId(requestId);
        TraceBean beforeBean = bean("ID1", "k1");
        beforeBean.setRetryTimes(2);
        apacheBefore.getTraceBeans().add(beforeBean);
        TraceContext apacheAfter = context(TraceType.SubAfter, 50L, "DefaultRegion", "CG_P");
        apacheAfter.setRequestId(requestId);
        apacheAfter.setCostTime(0);
        apacheAfter.setSuccess(true);
        apacheAfter.setContextCode(0);
        apacheAfter.setAccessChannel(AccessChannel.LOCAL); // the lite pull consumer's default
        apacheAfter.getTraceBeans().add(bean("ID1", "k1"));
        assertThat(new String(sent.get(0).body(), StandardCharsets.UTF_8)).isEqualTo(
                TraceDataEncoder.encoderFromContextBean(apacheBefore).getTransData()
                        + TraceDataEncoder.encoderFromContextBean(apacheAfter).getTransData());
        assertThat(requestId).isNotBlank();
        assertThat(sent.get(0).keys()).containsExactly("ID1", "k1");
    }

    @Test
    void shouldPutRecordsOneAfterAnotherInABodyApachesDecoderSplits() {
        List<TraceRecord> records = List.of(
                new TraceRecord.SubBefore(1L, "DefaultRegion", "CG", "R1", "ID1", 0, null),
                new TraceRecord.SubAfter("R1", "ID1", 1, true, null, DeliveryTraces.RETURNED, 2L, "CG"));
        String body = new String(TraceRecord.body(records), StandardCharsets.UTF_8);
        assertThat(TraceDataEncoder.decoderFromTraceDataString(body)).extracting(TraceContext::getTraceType)
                .containsExactly(TraceType.SubBefore, TraceType.SubAfter);
        assertThat(TraceRecord.keys(records)).containsExactly("ID1");
    }

    private static void assertSameAsApache(TraceRecord ferry, TraceContext apache) {
        TraceTransferBean expected = TraceDataEncoder.encoderFromContextBean(apache);
        assertThat(new String(TraceRecord.body(List.of(ferry)), StandardCharsets.UTF_8))
                .isEqualTo(expected.getTransData());
        // Apache's set holds a message's keys as one entry, sent space-separated: the index sees the same keys
        assertThat(TraceRecord.keys(List.of(ferry))).containsExactlyInAnyOrderElementsOf(expected.getTransKey()
                .stream().flatMap(key -> java.util.Arrays.stream(key.split(" "))).toList());
    }

    /** The trace messages of what {@code ends} traced at {@code now}, on the default trace topic. */
    private static List<dev.ferry.api.Message> endsWritten(long now, Consumer<TransactionTraces> ends) {
        List<dev.ferry.api.Message> sent = new ArrayList<>();
        TraceWriter writer = capturing(sent);
        ends.accept(new TransactionTraces(writer, "PG_T", new ManualClock(Instant.ofEpochMilli(now)),
                "RMQ_SYS_TRACE_TOPIC"));
        writer.flush();
        return sent;
    }

    /** A writer on the default trace topic whose trace messages, sent at each flush, land in {@code sent}. */
    private static TraceWriter capturing(List<dev.ferry.api.Message> sent) {
        return new TraceWriter("RMQ_SYS_TRACE_TOPIC", message -> {
            sent.add(message);
            return CompletableFuture.completedFuture("stored");
        }, Clock.system(), Runnable::run);
    }

    private static void assertWrittenAsApache(List<dev.ferry.api.Message> written, TraceContext apache) {
        TraceTransferBean expected = TraceDataEncoder.encoderFromContextBean(apache);
        assertThat(written).hasSize(1);
        assertThat(new String(written.get(0).body(), StandardCharsets.UTF_8)).isEqualTo(expected.getTransData());
        assertThat(written.get(0).keys()).containsExactlyInAnyOrderElementsOf(expected.getTransKey().stream()
                .flatMap(key -> java.util.Arrays.stream(key.split(" "))).toList());
    }

    private static TraceContext decode(TraceRecord record) {
        List<TraceContext> decoded = TraceDataEncoder.decoderFromTraceDataString(
                new String(TraceRecord.body(List.of(record)), StandardCharsets.UTF_8));
        assertThat(decoded).hasSize(1);
        return decoded.get(0);
    }

    private static TraceContext context(TraceType type, long timestamp, String region, String group) {
        TraceContext context = new TraceContext();
        context.setTraceType(type);
        context.setTimeStamp(timestamp);
        context.setRegionId(region);
        context.setGroupName(group);
        context.setTraceBeans(new ArrayList<>());
        return context;
    }

    private static TraceBean bean(String msgId, String keys) {
        TraceBean bean = new TraceBean();
        bean.setMsgId(msgId);
        bean.setKeys(keys);
        return bean;
    }
}
