package dev.ferry.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.apache.rocketmq.common.UtilAll;
import org.apache.rocketmq.common.compression.ZlibCompressor;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageId;
import org.junit.jupiter.api.Test;

/**
 * The one message format against Apache's {@code MessageDecoder} as the oracle, field by field, both ways: entries
 * Ferry writes are read by Apache, entries Apache writes are read and verified by Ferry. The same for properties,
 * offset message ids and zlib bodies.
 */
class StoredMessageFormatTest {
    private static final String TOPIC_CHARACTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-%|";
    /** Text that may appear in names and values: anything but the two separators and U+0000. */
    private static final String TEXT_CHARACTERS = "aZ09 _-.:/=,;{}\"'\u00e9\u4e2d\ud83d\ude80\t";

    /** Every field of one entry. */
    record Fields(int queueId, int flag, long queueOffset, long physicalOffset, int sysFlag, long bornTimestamp,
                  InetSocketAddress bornHost, long storeTimestamp, InetSocketAddress storeHost, int reconsumeTimes,
                  long preparedTransactionOffset, byte[] body, String topic, Map<String, String> properties) {
    }

    /** What the store hands the codec, built from {@link Fields}. */
    record Prepared(Fields fields, byte[] topicBytes, byte[] propertiesBytes, int magicCode, int bodyCrc,
                    int encodedLength) implements StoredMessageCodec.Encodable {
        static Prepared of(Fields f) {
            byte[] topic = f.topic().getBytes(StandardCharsets.UTF_8);
            byte[] properties = MessageProperties.format(f.properties()).getBytes(StandardCharsets.UTF_8);
            boolean v2 = topic.length > 127;
            return new Prepared(f, topic, properties, v2 ? StoredMessageCodec.MAGIC_V2 : StoredMessageCodec.MAGIC_V1,
                    StoredMessageCodec.bodyCrc(ByteBuffer.wrap(f.body())),
                    StoredMessageCodec.encodedLength(f.sysFlag(), f.body().length, topic.length, properties.length, v2));
        }

        @Override
        public int queueId() {
            return fields.queueId();
        }

        @Override
        public int flag() {
            return fields.flag();
        }

        @Override
        public int sysFlag() {
            return fields.sysFlag();
        }

        @Override
        public long bornTimestamp() {
            return fields.bornTimestamp();
        }

        @Override
        public InetSocketAddress bornHost() {
            return fields.bornHost();
        }

        @Override
        public InetSocketAddress storeHost() {
            return fields.storeHost();
        }

        @Override
        public int reconsumeTimes() {
            return fields.reconsumeTimes();
        }

        @Override
        public long preparedTransactionOffset() {
            return fields.preparedTransactionOffset();
        }

        @Override
        public byte[] body() {
            return fields.body();
        }
    }

    private static Fields randomFields(long seed, boolean longTopics) {
        Random random = new Random(seed);
        InetSocketAddress bornHost = randomHost(random);
        InetSocketAddress storeHost = randomHost(random);
        int sysFlag = SysFlags.withTransactionType(random.nextBoolean() ? SysFlags.MULTI_TAGS : 0,
                random.nextInt(4) << 2);
        if (!OffsetMessageId.isIpv4(bornHost)) {
            sysFlag |= SysFlags.BORNHOST_V6;
        }
        if (!OffsetMessageId.isIpv4(storeHost)) {
            sysFlag |= SysFlags.STOREHOST_V6;
        }
        byte[] body = new byte[random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(2000)];
        random.nextBytes(body);
        int topicLength = longTopics && random.nextBoolean() ? 128 + random.nextInt(300) : 1 + random.nextInt(127);
        Map<String, String> properties = new LinkedHashMap<>();
        for (int i = random.nextInt(8); i > 0; i--) {
            properties.put(text(random, 1 + random.nextInt(12)), text(random, 1 + random.nextInt(40)));
        }
        return new Fields(random.nextInt(Integer.MAX_VALUE), random.nextInt(), random.nextLong() & Long.MAX_VALUE,
                random.nextLong() & Long.MAX_VALUE, sysFlag, random.nextLong() & Long.MAX_VALUE, bornHost,
                random.nextLong() & Long.MAX_VALUE, storeHost, random.nextInt(Integer.MAX_VALUE),
                random.nextLong() & Long.MAX_VALUE, body, from(random, TOPIC_CHARACTERS, topicLength), properties);
    }

    private static String text(Random random, int length) {
        return from(random, TEXT_CHARACTERS, length);
    }

    private static String from(Random random, String alphabet, int length) {
        StringBuilder out = new StringBuilder(length);
        while (out.length() < length) {
            int at = random.nextInt(alphabet.length());
            if (Character.isHighSurrogate(alphabet.charAt(at))) {
                out.append(alphabet, at, at + 2);
            } else if (!Character.isLowSurrogate(alphabet.charAt(at))) {
                out.append(alphabet.charAt(at));
            }
        }
        return out.toString();
    }

    private static InetSocketAddress randomHost(Random random) {
        byte[] address = new byte[random.nextBoolean() ? 4 : 16];
        random.nextBytes(address);
        try {
            return new InetSocketAddress(InetAddress.getByAddress(address), random.nextInt(65536));
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    private static ByteBuffer encode(Fields fields) {
        Prepared prepared = Prepared.of(fields);
        ByteBuffer entry = ByteBuffer.allocate(prepared.encodedLength());
        StoredMessageCodec.encode(entry, 0, prepared, fields.queueOffset(), fields.physicalOffset(),
                fields.storeTimestamp());
        return entry;
    }

    @Property(tries = 3_000)
    void shouldWriteEntriesThatApacheReadsFieldForField(@ForAll long seed) {
        Fields f = randomFields(seed, true);
        ByteBuffer entry = encode(f);

        MessageExt apache = MessageDecoder.decode(entry.duplicate(), true, false, false, false, true);

        assertThat(apache).isNotNull();
        assertThat(apache.getStoreSize()).isEqualTo(entry.capacity());
        assertThat(apache.getBodyCRC()).isEqualTo(UtilAll.crc32(f.body()));
        assertThat(apache.getQueueId()).isEqualTo(f.queueId());
        assertThat(apache.getFlag()).isEqualTo(f.flag());
        assertThat(apache.getQueueOffset()).isEqualTo(f.queueOffset());
        assertThat(apache.getCommitLogOffset()).isEqualTo(f.physicalOffset());
        assertThat(apache.getSysFlag()).isEqualTo(f.sysFlag());
        assertThat(apache.getBornTimestamp()).isEqualTo(f.bornTimestamp());
        assertThat(apache.getBornHost()).isEqualTo(f.bornHost());
        assertThat(apache.getStoreTimestamp()).isEqualTo(f.storeTimestamp());
        assertThat(apache.getStoreHost()).isEqualTo(f.storeHost());
        assertThat(apache.getReconsumeTimes()).isEqualTo(f.reconsumeTimes());
        assertThat(apache.getPreparedTransactionOffset()).isEqualTo(f.preparedTransactionOffset());
        assertThat(apache.getBody() == null ? new byte[0] : apache.getBody()).as("Apache leaves an empty body null")
                .isEqualTo(f.body());
        assertThat(apache.getTopic()).isEqualTo(f.topic());
        assertThat(propertiesOf(apache)).isEqualTo(f.properties());
        assertThat(apache.getMsgId()).isEqualTo(StoredMessageView.over(entry).offsetMessageId());
        assertThat(StoredMessageCodec.check(entry, 0, entry.capacity() + StoredMessageCodec.BLANK_MARKER_SIZE,
                f.physicalOffset()).verdict()).isEqualTo(StoredMessageCodec.Verdict.MESSAGE);
    }

    @Property(tries = 1_000)
    void shouldRetargetAnEntryToAnotherTopicAndQueueKeepingEveryOtherField(@ForAll long seed) {
        Fields f = randomFields(seed, false);
        String topic = from(new Random(seed + 1), TOPIC_CHARACTERS, 1 + new Random(seed + 2).nextInt(127));
        ByteBuffer retargeted = StoredMessageView.over(encode(f)).retargeted(topic, 7);

        MessageExt apache = MessageDecoder.decode(retargeted.duplicate(), true, false, false, false, true);
        Fields expected = new Fields(7, f.flag(), f.queueOffset(), f.physicalOffset(), f.sysFlag(), f.bornTimestamp(),
                f.bornHost(), f.storeTimestamp(), f.storeHost(), f.reconsumeTimes(), f.preparedTransactionOffset(),
                f.body(), topic, f.properties());
        assertThat(retargeted.array()).as("the entry written with the new topic and queue")
                .isEqualTo(encode(expected).array());
        assertThat(apache.getTopic()).isEqualTo(topic);
        assertThat(apache.getQueueId()).isEqualTo(7);
        assertThat(StoredMessageCodec.check(retargeted, 0, retargeted.capacity() + StoredMessageCodec.BLANK_MARKER_SIZE,
                f.physicalOffset()).verdict()).isEqualTo(StoredMessageCodec.Verdict.MESSAGE);
    }

    @Property(tries = 3_000)
    void shouldReadAndVerifyEntriesApacheWritesFieldForField(@ForAll long seed) throws Exception {
        Fields f = randomFields(seed, false);
        MessageExt apache = new MessageExt(f.queueId(), f.bornTimestamp(), f.bornHost(), f.storeTimestamp(),
                f.storeHost(), null);
        apache.setTopic(f.topic());
        apache.setBody(f.body());
        apache.setFlag(f.flag());
        apache.setQueueOffset(f.queueOffset());
        apache.setCommitLogOffset(f.physicalOffset());
        apache.setSysFlag(f.sysFlag());
        apache.setReconsumeTimes(f.reconsumeTimes());
        apache.setPreparedTransactionOffset(f.preparedTransactionOffset());
        apache.setBodyCRC(UtilAll.crc32(f.body()));
        f.properties().forEach((name, value) -> MessageAccessor.putProperty(apache, name, value));
        ByteBuffer entry = ByteBuffer.wrap(MessageDecoder.encode(apache, false));

        StoredMessageView view = StoredMessageView.over(entry);

        assertThat(StoredMessageCodec.layoutProblem(entry.duplicate())).isNull();
        assertThat(view.totalSize()).isEqualTo(entry.capacity());
        assertThat(view.magicCode()).isEqualTo(StoredMessageCodec.MAGIC_V1);
        assertThat(view.bodyCrc()).isEqualTo(view.computeBodyCrc());
        assertThat(view.queueId()).isEqualTo(f.queueId());
        assertThat(view.flag()).isEqualTo(f.flag());
        assertThat(view.queueOffset()).isEqualTo(f.queueOffset());
        assertThat(view.physicalOffset()).isEqualTo(f.physicalOffset());
        assertThat(view.sysFlag()).isEqualTo(f.sysFlag());
        assertThat(view.bornTimestamp()).isEqualTo(f.bornTimestamp());
        assertThat(view.bornHost()).isEqualTo(f.bornHost());
        assertThat(view.storeTimestamp()).isEqualTo(f.storeTimestamp());
        assertThat(view.storeHost()).isEqualTo(f.storeHost());
        assertThat(view.reconsumeTimes()).isEqualTo(f.reconsumeTimes());
        assertThat(view.preparedTransactionOffset()).isEqualTo(f.preparedTransactionOffset());
        assertThat(view.bodyBytes()).isEqualTo(f.body());
        assertThat(view.topic()).isEqualTo(f.topic());
        assertThat(view.properties()).isEqualTo(f.properties());
        assertThat(view.offsetMessageId()).isEqualTo(MessageDecoder.createMessageId(
                ByteBuffer.allocate(OffsetMessageId.isIpv4(f.storeHost()) ? 16 : 28),
                ByteBuffer.wrap(hostBytes(f.storeHost())), f.physicalOffset()));
        assertThat(StoredMessageCodec.check(entry, 0, entry.capacity() + StoredMessageCodec.BLANK_MARKER_SIZE,
                f.physicalOffset()).verdict()).isEqualTo(StoredMessageCodec.Verdict.MESSAGE);
    }

    /** Apache leaves a message without properties with none at all. */
    private static Map<String, String> propertiesOf(MessageExt message) {
        return message.getProperties() == null ? Map.of() : message.getProperties();
    }

    private static byte[] hostBytes(InetSocketAddress host) {
        byte[] address = host.getAddress().getAddress();
        return ByteBuffer.allocate(address.length + 4).put(address).putInt(host.getPort()).array();
    }

    /** Any text over names, values and both separators, the edge cases (empty names and values, repeats) included. */
    @Property(tries = 20_000)
    void shouldParsePropertiesExactlyAsApacheDoes(@ForAll long seed) {
        Random random = new Random(seed);
        String text = from(random, "ab\u0001\u0002", random.nextInt(30));

        Map<String, String> apache = MessageDecoder.string2messageProperties(text);

        assertThat(MessageProperties.parse(text)).isEqualTo(apache);
        for (String name : new String[] {"a", "b", "ab", "ba", "aa", ""}) {
            assertThat(MessageProperties.find(text, name)).as("find %s in %s", name, text).isEqualTo(apache.get(name));
        }
    }

    @Property(tries = 3_000)
    void shouldFormatPropertiesThatApacheParsesBack(@ForAll long seed) {
        Map<String, String> properties = randomFields(seed, false).properties();

        String formatted = MessageProperties.format(properties);

        assertThat(MessageDecoder.string2messageProperties(formatted)).isEqualTo(properties);
        assertThat(MessageProperties.parse(MessageDecoder.messageProperties2String(properties))).isEqualTo(properties);
    }

    @Property(tries = 1_000)
    void shouldAgreeWithApacheOnOffsetMessageIds(@ForAll long seed) throws Exception {
        Fields f = randomFields(seed, false);
        String ferry = OffsetMessageId.encode(f.storeHost(), f.physicalOffset());

        MessageId apache = MessageDecoder.decodeMessageId(ferry);

        assertThat(apache.getAddress()).isEqualTo(f.storeHost());
        assertThat(apache.getOffset()).isEqualTo(f.physicalOffset());
        assertThat(OffsetMessageId.decode(MessageDecoder.createMessageId(f.storeHost(), f.physicalOffset())))
                .isEqualTo(new OffsetMessageId(f.storeHost(), f.physicalOffset()));
    }

    @Test
    void shouldInflateApachesZlibBodiesAndDeflateBodiesApacheInflates() throws Exception {
        byte[] text = "a body that compresses well, ".repeat(500).getBytes(StandardCharsets.UTF_8);
        ZlibCompressor apache = new ZlibCompressor();

        assertThat(BodyCompression.inflate(apache.compress(text, 5), SysFlags.COMPRESSED | SysFlags.ZLIB, 1 << 20))
                .isEqualTo(text);
        assertThat(apache.decompress(BodyCompression.deflate(text, BodyCompression.DEFAULT_LEVEL))).isEqualTo(text);
    }
}
