package dev.ferry.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.MessageProperties;
import dev.ferry.format.StoredMessageView;
import dev.ferry.format.SysFlags;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Apache's MessageDecoder is the oracle: it must read what Ferry stores, field for field. */
class ApacheDecoderCompatibilityTest {
    @TempDir
    Path dir;

    @Test
    void shouldDecodeV1Ipv4EntriesWithApacheMessageDecoder() {
        assertApacheDecodesIdentically(TestMessages.message("TopicA", 3, "hello ferry", "TagA", "k1 k2"));
    }

    @Test
    void shouldDecodeV2EntryWithLongTopicWithApacheMessageDecoder() {
        String longTopic = "T".repeat(200);
        MessageExt decoded = assertApacheDecodesIdentically(TestMessages.message(longTopic, 0, "long topic"));
        assertThat(decoded.getTopic()).hasSize(200);
    }

    @Test
    void shouldDecodeIpv6HostsWithApacheMessageDecoder() {
        MessageToStore message = MessageToStore.builder("TopicV6", 1, "v6".getBytes(StandardCharsets.UTF_8))
            .bornHost(TestMessages.host("fe80::1", 5555))
            .storeHost(TestMessages.host("2001:db8::7", 10911))
            .properties(Map.of(MessageProperties.TAGS, "x"))
            .build();
        MessageExt decoded = assertApacheDecodesIdentically(message);
        assertThat(decoded.getSysFlag() & (SysFlags.BORNHOST_V6 | SysFlags.STOREHOST_V6))
            .isEqualTo(SysFlags.BORNHOST_V6 | SysFlags.STOREHOST_V6);
        assertThat(decoded.getMsgId()).hasSize(56);
    }

    @Test
    void shouldDecodeEmptyBodyAndPropertiesWithApacheMessageDecoder() {
        assertApacheDecodesIdentically(MessageToStore.builder("Empty", 0, new byte[0]).build());
    }

    @Test
    void shouldProduceOffsetMessageIdThatApacheDecodes() throws Exception {
        try (MessageStore store = open()) {
            AppendResult result = store.append(TestMessages.message("TopicA", 0, "id"));
            MessageId id = MessageDecoder.decodeMessageId(result.offsetMessageId());
            assertThat(result.offsetMessageId()).hasSize(32);
            assertThat(id.getOffset()).isEqualTo(result.physicalOffset());
            assertThat(id.getAddress()).isEqualTo(TestMessages.STORE_HOST);
            assertThat(store.messageByOffsetId(result.offsetMessageId())).get()
                .extracting(StoredMessageView::physicalOffset).isEqualTo(result.physicalOffset());
        }
    }

    private MessageStore open() {
        return MessageStore.builder(TestMessages.smallConfig(dir).build()).open();
    }

    private MessageExt assertApacheDecodesIdentically(MessageToStore message) {
        try (MessageStore store = open()) {
            store.append(TestMessages.message(message.topic(), message.queueId(), "first"));
            AppendResult result = store.append(message);
            assertThat(result.status()).isEqualTo(AppendStatus.PUT_OK);
            ByteBuffer stored = store.messageAt(result.physicalOffset()).orElseThrow().bytes();
            MessageExt decoded = MessageDecoder.decode(stored.duplicate(), true, false, false, false, true);
            assertThat(decoded).isNotNull();
            assertThat(decoded.getStoreSize()).isEqualTo(result.size());
            assertThat(decoded.getTopic()).isEqualTo(message.topic());
            assertThat(decoded.getQueueId()).isEqualTo(message.queueId());
            assertThat(decoded.getFlag()).isEqualTo(message.flag());
            assertThat(decoded.getQueueOffset()).isEqualTo(result.queueOffset()).isEqualTo(1);
            assertThat(decoded.getCommitLogOffset()).isEqualTo(result.physicalOffset());
            assertThat(decoded.getBornTimestamp()).isEqualTo(message.bornTimestamp());
            assertThat(decoded.getBornHost()).isEqualTo(message.bornHost());
            assertThat(decoded.getStoreTimestamp()).isEqualTo(result.storeTimestamp());
            assertThat(decoded.getStoreHost()).isEqualTo(message.storeHost());
            assertThat(decoded.getReconsumeTimes()).isEqualTo(message.reconsumeTimes());
            assertThat(decoded.getPreparedTransactionOffset()).isEqualTo(message.preparedTransactionOffset());
            assertThat(decoded.getBody()).isEqualTo(message.body().length == 0 ? null : message.body());
            Map<String, String> apacheProperties = decoded.getProperties() == null ? Map.of()
                : decoded.getProperties();
            assertThat(apacheProperties).isEqualTo(new LinkedHashMap<>(MessageProperties.parse(message.properties())));
            assertThat(decoded.getMsgId()).isEqualTo(result.offsetMessageId());
            assertFerryViewAgrees(StoredMessageView.over(stored), decoded);
            return decoded;
        }
    }

    private static void assertFerryViewAgrees(StoredMessageView view, MessageExt decoded) {
        assertThat(view.topic()).isEqualTo(decoded.getTopic());
        assertThat(view.bodyCrc()).isEqualTo(decoded.getBodyCRC());
        assertThat(view.sysFlag()).isEqualTo(decoded.getSysFlag());
        assertThat(view.bornHost()).isEqualTo((InetSocketAddress) decoded.getBornHost());
        assertThat(view.storeHost()).isEqualTo((InetSocketAddress) decoded.getStoreHost());
        assertThat(view.storeTimestamp()).isEqualTo(decoded.getStoreTimestamp());
        assertThat(view.properties()).isEqualTo(decoded.getProperties() == null ? Map.of() : decoded.getProperties());
        assertThat(view.offsetMessageId()).isEqualTo(decoded.getMsgId());
    }
}
