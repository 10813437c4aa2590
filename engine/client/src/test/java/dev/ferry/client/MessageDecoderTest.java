package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.api.FerryException;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.format.BodyCompression;
import dev.ferry.format.MessageProperties;
import dev.ferry.format.StoredMessageCodec;
import dev.ferry.format.SysFlags;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Stored-message records as pull responses carry them: V1 and V2 magic, IPv4 and IPv6 hosts, zlib bodies. */
class MessageDecoderTest {
    private static final MessageDecoder DECODER = new MessageDecoder(1 << 20);

    /** Writes one record in the commit-log layout. */
    private static byte[] record(int magic, int sysFlag, String topic, byte[] body, Map<String, String> properties,
                                 long queueOffset, long commitLogOffset) {
        boolean bornV6 = (sysFlag & 0x10) != 0;
        boolean storeV6 = (sysFlag & 0x20) != 0;
        byte[] topicBytes = topic.getBytes(StandardCharsets.UTF_8);
        byte[] props = MessageProperties.format(properties).getBytes(StandardCharsets.UTF_8);
        int size = 4 + 4 + 4 + 4 + 4 + 8 + 8 + 4 + 8 + (bornV6 ? 20 : 8) + 8 + (storeV6 ? 20 : 8) + 4 + 8
                + 4 + body.length + (magic == StoredMessageCodec.MAGIC_V2 ? 2 : 1) + topicBytes.length + 2
                + props.length;
        ByteBuffer out = ByteBuffer.allocate(size);
        out.putInt(size).putInt(magic).putInt(0).putInt(3).putInt(0).putLong(queueOffset).putLong(commitLogOffset)
                .putInt(sysFlag).putLong(1_000L);
        out.put(new byte[bornV6 ? 16 : 4]).putInt(1234);
        out.putLong(2_000L);
        out.put(bornV6 || storeV6 ? new byte[storeV6 ? 16 : 4] : new byte[] {127, 0, 0, 1}).putInt(10911);
        out.putInt(2).putLong(0).putInt(body.length).put(body);
        if (magic == StoredMessageCodec.MAGIC_V2) {
            out.putShort((short) topicBytes.length);
        } else {
            out.put((byte) topicBytes.length);
        }
        out.put(topicBytes).putShort((short) props.length).put(props);
        return out.array();
    }

    @Test
    void shouldDecodeBackToBackV1RecordsWithIpv4Hosts() {
        Map<String, String> props = new LinkedHashMap<>(Map.of("TAGS", "TagA", "KEYS", "K1 K2", "UNIQ_KEY", "ID1"));
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(record(StoredMessageCodec.MAGIC_V1, 0, "T", "one".getBytes(StandardCharsets.UTF_8), props, 5,
                100));
        body.writeBytes(record(StoredMessageCodec.MAGIC_V1, 0, "T", "two".getBytes(StandardCharsets.UTF_8), Map.of(), 6,
                300));

        List<ReceivedMessage> messages = DECODER.decodeAll(body.toByteArray(), "broker-a");

        assertThat(messages).hasSize(2);
        ReceivedMessage first = messages.get(0);
        assertThat(first.topic()).isEqualTo("T");
        assertThat(first.body()).asString(StandardCharsets.UTF_8).isEqualTo("one");
        assertThat(first.tags()).contains("TagA");
        assertThat(first.keys()).containsExactly("K1", "K2");
        assertThat(first.msgId()).isEqualTo("ID1");
        assertThat(first.queueId()).isEqualTo(3);
        assertThat(first.queueOffset()).isEqualTo(5);
        assertThat(first.commitLogOffset()).isEqualTo(100);
        assertThat(first.reconsumeTimes()).isEqualTo(2);
        assertThat(first.bornTimestamp()).isEqualTo(1_000L);
        assertThat(first.storeTimestamp()).isEqualTo(2_000L);
        assertThat(first.brokerName()).isEqualTo("broker-a");
        assertThat(messages.get(1).msgId()).as("offset id without UNIQ_KEY")
                .isEqualTo("7F00000100002A9F000000000000012C");
    }

    @Test
    void shouldDecodeV2RecordsWithIpv6HostsAndCompressedBodies() {
        byte[] text = "compress me ".repeat(1_000).getBytes(StandardCharsets.UTF_8);
        String longTopic = "L".repeat(200);
        byte[] bytes = record(StoredMessageCodec.MAGIC_V2, 0x1 | 0x10 | 0x20 | (3 << 8), longTopic,
                BodyCompression.deflate(text, BodyCompression.DEFAULT_LEVEL), Map.of("UNIQ_KEY", "ID2"), 0, 0);

        ReceivedMessage message = DECODER.decodeAll(bytes, "broker-v6").get(0);

        assertThat(message.topic()).isEqualTo(longTopic);
        assertThat(message.body()).isEqualTo(text);
        assertThat(message.storeTimestamp()).isEqualTo(2_000L);
        assertThat(message.reconsumeTimes()).isEqualTo(2);
    }

    @Test
    void shouldRestoreTheOriginalTopicOfARedeliveredMessage() {
        byte[] bytes = record(StoredMessageCodec.MAGIC_V1, 0, "%RETRY%CG", new byte[] {1},
                Map.of("RETRY_TOPIC", "Orders", "UNIQ_KEY", "ID3"), 0, 0);
        assertThat(DECODER.decodeAll(bytes, "b").get(0).topic()).isEqualTo("Orders");
    }

    @Test
    void shouldTakeTheLastValueOfARepeatedPropertyAsApacheDoes() {
        byte[] bytes = record(StoredMessageCodec.MAGIC_V1, 0, "T", new byte[] {1}, Map.of(), 0, 0);
        String properties = "UNIQ_KEY\u0001FIRST\u0002WAIT\u0001true\u0002UNIQ_KEY\u0001LAST\u0002";
        byte[] repeated = withProperties(bytes, properties);

        ReceivedMessage message = DECODER.decodeAll(repeated, "b").get(0);

        assertThat(message.msgId()).isEqualTo("LAST");
        assertThat(message.properties()).containsEntry("WAIT", "true");
    }

    @Test
    void shouldRefuseABodyThatInflatesBeyondTheBound() {
        byte[] bomb = BodyCompression.deflate(new byte[2 << 20], BodyCompression.DEFAULT_LEVEL);
        byte[] bytes = record(StoredMessageCodec.MAGIC_V1, SysFlags.COMPRESSED | SysFlags.ZLIB, "T", bomb,
                Map.of("UNIQ_KEY", "BOMB"), 0, 0);

        assertThatThrownBy(() -> DECODER.decodeAll(bytes, "broker-z")).isInstanceOf(FerryException.class)
                .hasMessageContaining("broker-z").hasMessageContaining("inflates to more than 1048576 bytes");
        assertThat(new MessageDecoder(4 << 20).decodeAll(bytes, "broker-z").get(0).body()).hasSize(2 << 20);
    }

    @Test
    void shouldRefuseARecordWhoseLengthsDoNotAddUp() {
        byte[] bytes = record(StoredMessageCodec.MAGIC_V1, 0, "T", new byte[] {1, 2, 3}, Map.of("A", "b"), 0, 0);
        int bodyLength = StoredMessageCodec.bodyLengthPosition(0);
        ByteBuffer.wrap(bytes).putInt(bodyLength, 1_000);

        assertThatThrownBy(() -> DECODER.decodeAll(bytes, "b")).isInstanceOf(FerryException.class)
                .hasMessageContaining("body length 1000 out of range");
    }

    /** The record with its properties replaced by {@code properties}, sizes adjusted. */
    private static byte[] withProperties(byte[] record, String properties) {
        byte[] props = properties.getBytes(StandardCharsets.UTF_8);
        ByteBuffer in = ByteBuffer.wrap(record);
        int propertiesLengthAt = record.length - 2 - Short.toUnsignedInt(in.getShort(record.length - 2));
        ByteBuffer out = ByteBuffer.allocate(propertiesLengthAt + 2 + props.length);
        out.put(record, 0, propertiesLengthAt).putShort((short) props.length).put(props);
        out.putInt(0, out.capacity());
        return out.array();
    }

    @Test
    void shouldRejectATruncatedRecord() {
        byte[] bytes = record(StoredMessageCodec.MAGIC_V1, 0, "T", new byte[] {1, 2, 3}, Map.of(), 0, 0);
        byte[] truncated = java.util.Arrays.copyOf(bytes, bytes.length - 4);
        ByteBuffer.wrap(truncated).putInt(0, truncated.length);
        assertThatThrownBy(() -> DECODER.decodeAll(truncated, "b")).isInstanceOf(FerryException.class);
    }
}
