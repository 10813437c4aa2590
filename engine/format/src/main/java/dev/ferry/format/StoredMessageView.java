package dev.ferry.format;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A read-only flyweight over one stored entry: every accessor reads the bytes in place (absolute indexes), nothing is
 * copied until asked for. Valid as long as the buffer it wraps; safe to share once built.
 */
public final class StoredMessageView {
    private final ByteBuffer entry;

    private StoredMessageView(ByteBuffer entry) {
        this.entry = entry;
    }

    /**
     * Wraps a buffer whose index 0 is the entry's first byte, such as a slice of the store's log. Bytes from elsewhere
     * (a pull response) must pass {@link StoredMessageCodec#layoutProblem} first.
     */
    public static StoredMessageView over(ByteBuffer entry) {
        return new StoredMessageView(entry.slice(0, entry.getInt(0)));
    }

    /** The entry's bytes, exactly as stored: what a pull response carries. */
    public ByteBuffer bytes() {
        return entry.asReadOnlyBuffer();
    }

    public int totalSize() {
        return entry.getInt(StoredMessageCodec.TOTAL_SIZE_POSITION);
    }

    public int magicCode() {
        return entry.getInt(StoredMessageCodec.MAGIC_POSITION);
    }

    public int bodyCrc() {
        return entry.getInt(StoredMessageCodec.BODY_CRC_POSITION);
    }

    public int queueId() {
        return entry.getInt(StoredMessageCodec.QUEUE_ID_POSITION);
    }

    public int flag() {
        return entry.getInt(StoredMessageCodec.FLAG_POSITION);
    }

    public long queueOffset() {
        return entry.getLong(StoredMessageCodec.QUEUE_OFFSET_POSITION);
    }

    public long physicalOffset() {
        return entry.getLong(StoredMessageCodec.PHYSICAL_OFFSET_POSITION);
    }

    public int sysFlag() {
        return entry.getInt(StoredMessageCodec.SYS_FLAG_POSITION);
    }

    public long bornTimestamp() {
        return entry.getLong(StoredMessageCodec.BORN_TIMESTAMP_POSITION);
    }

    public InetSocketAddress bornHost() {
        return host(StoredMessageCodec.BORN_HOST_POSITION, SysFlags.isBornHostV6(sysFlag()));
    }

    public long storeTimestamp() {
        return entry.getLong(StoredMessageCodec.storeTimestampPosition(sysFlag()));
    }

    public InetSocketAddress storeHost() {
        int sysFlag = sysFlag();
        return host(StoredMessageCodec.storeHostPosition(sysFlag), SysFlags.isStoreHostV6(sysFlag));
    }

    public int reconsumeTimes() {
        return entry.getInt(StoredMessageCodec.reconsumeTimesPosition(sysFlag()));
    }

    public long preparedTransactionOffset() {
        return entry.getLong(StoredMessageCodec.preparedTransactionOffsetPosition(sysFlag()));
    }

    /** The body bytes as stored (compressed when the sys flag says so), read-only. */
    public ByteBuffer body() {
        int p = StoredMessageCodec.bodyLengthPosition(sysFlag());
        return entry.slice(p + 4, entry.getInt(p)).asReadOnlyBuffer();
    }

    /** A copy of the body. */
    public byte[] bodyBytes() {
        ByteBuffer body = body();
        byte[] copy = new byte[body.remaining()];
        body.get(copy);
        return copy;
    }

    /** The body CRC of the body as it is now; equals {@link #bodyCrc()} for an intact entry. */
    public int computeBodyCrc() {
        return StoredMessageCodec.bodyCrc(body());
    }

    public String topic() {
        int p = topicLengthPosition();
        boolean v2 = magicCode() == StoredMessageCodec.MAGIC_V2;
        int length = v2 ? entry.getShort(p) : entry.get(p);
        return utf8(p + (v2 ? 2 : 1), length);
    }

    /** The properties in the stored format ({@code name\u0001value\u0002...}). */
    public String propertiesString() {
        int p = propertiesLengthPosition();
        return utf8(p + 2, entry.getShort(p));
    }

    public Map<String, String> properties() {
        return MessageProperties.parse(propertiesString());
    }

    /** One property's value, or null. */
    public String property(String name) {
        return MessageProperties.find(propertiesString(), name);
    }

    /** The consume-queue tag code: {@code TAGS.hashCode()}, 0 without tags. */
    public long tagsCode() {
        return MessageProperties.tagsCode(propertiesString());
    }

    /**
     * This entry's bytes with another topic and queue id, everything else (offsets, times, flags, body, properties)
     * as stored: a half message shown to its producer under the topic it was sent to, as Apache's broker shows it.
     *
     * @throws IllegalArgumentException when the topic does not fit the entry's format
     */
    public ByteBuffer retargeted(String topic, int queueId) {
        byte[] topicBytes = topic.getBytes(StandardCharsets.UTF_8);
        boolean v2 = magicCode() == StoredMessageCodec.MAGIC_V2;
        if (topicBytes.length > (v2 ? Short.MAX_VALUE : Byte.MAX_VALUE)) {
            throw new IllegalArgumentException("topic of " + topicBytes.length + " bytes does not fit the entry");
        }
        byte[] properties = propertiesString().getBytes(StandardCharsets.UTF_8);
        byte[] body = bodyBytes();
        int length = StoredMessageCodec.encodedLength(sysFlag(), body.length, topicBytes.length, properties.length, v2);
        StoredMessageView original = this;
        ByteBuffer target = ByteBuffer.allocate(length);
        StoredMessageCodec.encode(target, 0, new StoredMessageCodec.Encodable() {
            @Override
            public int magicCode() {
                return original.magicCode();
            }

            @Override
            public int bodyCrc() {
                return original.bodyCrc();
            }

            @Override
            public int queueId() {
                return queueId;
            }

            @Override
            public int flag() {
                return original.flag();
            }

            @Override
            public int sysFlag() {
                return original.sysFlag();
            }

            @Override
            public long bornTimestamp() {
                return original.bornTimestamp();
            }

            @Override
            public InetSocketAddress bornHost() {
                return original.bornHost();
            }

            @Override
            public InetSocketAddress storeHost() {
                return original.storeHost();
            }

            @Override
            public int reconsumeTimes() {
                return original.reconsumeTimes();
            }

            @Override
            public long preparedTransactionOffset() {
                return original.preparedTransactionOffset();
            }

            @Override
            public byte[] body() {
                return body;
            }

            @Override
            public byte[] topicBytes() {
                return topicBytes;
            }

            @Override
            public byte[] propertiesBytes() {
                return properties;
            }

            @Override
            public int encodedLength() {
                return length;
            }
        }, queueOffset(), physicalOffset(), storeTimestamp());
        return target;
    }

    /** The offset message id of this entry. */
    public String offsetMessageId() {
        return OffsetMessageId.encode(storeHost(), physicalOffset());
    }

    private int topicLengthPosition() {
        int p = StoredMessageCodec.bodyLengthPosition(sysFlag());
        return p + 4 + entry.getInt(p);
    }

    private int propertiesLengthPosition() {
        int p = topicLengthPosition();
        return magicCode() == StoredMessageCodec.MAGIC_V2 ? p + 2 + entry.getShort(p) : p + 1 + entry.get(p);
    }

    private String utf8(int at, int length) {
        byte[] bytes = new byte[length];
        entry.get(at, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private InetSocketAddress host(int at, boolean v6) {
        byte[] address = new byte[v6 ? 16 : 4];
        entry.get(at, address);
        try {
            return new InetSocketAddress(InetAddress.getByAddress(address), entry.getInt(at + address.length));
        } catch (UnknownHostException e) {
            throw new IllegalStateException("unreachable: address of " + address.length + " bytes", e);
        }
    }

    @Override
    public String toString() {
        return "StoredMessage[topic=" + topic() + ", queueId=" + queueId() + ", queueOffset=" + queueOffset()
            + ", physicalOffset=" + physicalOffset() + ", size=" + totalSize() + "]";
    }
}
