package dev.ferry.store;

import dev.ferry.format.NameRules;
import dev.ferry.format.OffsetMessageId;
import dev.ferry.format.StoredMessageCodec;
import dev.ferry.format.SysFlags;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A {@link MessageToStore} validated and turned into the bytes that do not depend on its position: computed by the
 * appending thread before it takes the commit-log lock, so that the lock covers only offsets and copying.
 *
 * @param message        the input
 * @param topicBytes     UTF-8 topic
 * @param propertiesBytes UTF-8 properties
 * @param bodyCrc        RocketMQ's body CRC (CRC32 with the top bit cleared)
 * @param magicCode      V1 or V2 magic code
 * @param sysFlag        the input's sys flag with the host bits set from the hosts
 * @param encodedLength  the stored entry's total size
 */
record PreparedMessage(MessageToStore message, byte[] topicBytes, byte[] propertiesBytes, int bodyCrc, int magicCode,
                       int sysFlag, int encodedLength) implements StoredMessageCodec.Encodable {

    /** Largest V1 topic: its length is one signed byte. */
    static final int MAX_V1_TOPIC_LENGTH = 127;

    /**
     * Validates and prepares a message.
     *
     * @throws MessageRejectedException with the append status to report; nothing has been written
     */
    static PreparedMessage prepare(MessageToStore message, int maxBodySize) {
        MessageToStore m = message;
        if (m.body().length > maxBodySize) {
            throw new MessageRejectedException(AppendStatus.MESSAGE_TOO_LARGE,
                "body of " + m.body().length + " bytes exceeds maxMessageBodySize " + maxBodySize);
        }
        byte[] topic = m.topic().getBytes(StandardCharsets.UTF_8);
        if (topic.length == 0 || topic.length > Short.MAX_VALUE) {
            throw new MessageRejectedException(AppendStatus.MESSAGE_ILLEGAL,
                "topic must have 1 to " + Short.MAX_VALUE + " UTF-8 bytes but has " + topic.length);
        }
        if (!NameRules.hasOnlyAllowedCharacters(m.topic())) {
            // the characters are also what keeps a topic's directory name safe (QueueDirectories)
            throw new MessageRejectedException(AppendStatus.MESSAGE_ILLEGAL,
                "topic " + NameRules.shown(m.topic()) + " contains characters outside " + NameRules.ALLOWED);
        }
        if (m.queueId() < 0) {
            throw new MessageRejectedException(AppendStatus.MESSAGE_ILLEGAL, "queueId must be >= 0: " + m.queueId());
        }
        if (m.bornHost().isUnresolved() || m.storeHost().isUnresolved()) {
            throw new MessageRejectedException(AppendStatus.MESSAGE_ILLEGAL, "born and store hosts must be resolved");
        }
        byte[] properties = m.properties().getBytes(StandardCharsets.UTF_8);
        if (properties.length > Short.MAX_VALUE) {
            throw new MessageRejectedException(AppendStatus.PROPERTIES_TOO_LARGE,
                "properties of " + properties.length + " bytes exceed " + Short.MAX_VALUE);
        }
        if (m.properties().indexOf('\u0000') >= 0) {
            // recovery reads zero bytes in properties as a torn write, so such an entry would be cut with all after it
            throw new MessageRejectedException(AppendStatus.MESSAGE_ILLEGAL,
                "properties must not contain the character U+0000");
        }
        int sysFlag = m.sysFlag() & ~(SysFlags.BORNHOST_V6 | SysFlags.STOREHOST_V6);
        if (!OffsetMessageId.isIpv4(m.bornHost())) {
            sysFlag |= SysFlags.BORNHOST_V6;
        }
        if (!OffsetMessageId.isIpv4(m.storeHost())) {
            sysFlag |= SysFlags.STOREHOST_V6;
        }
        boolean v2 = topic.length > MAX_V1_TOPIC_LENGTH;
        int length = StoredMessageCodec.encodedLength(sysFlag, m.body().length, topic.length, properties.length, v2);
        return new PreparedMessage(m, topic, properties, StoredMessageCodec.bodyCrc(ByteBuffer.wrap(m.body())),
            v2 ? StoredMessageCodec.MAGIC_V2 : StoredMessageCodec.MAGIC_V1, sysFlag, length);
    }

    /** Whether this message gets a consume-queue entry and so a queue offset. */
    boolean isDispatched() {
        return SysFlags.isDispatchedToConsumeQueue(sysFlag);
    }

    @Override
    public int queueId() {
        return message.queueId();
    }

    @Override
    public int flag() {
        return message.flag();
    }

    @Override
    public long bornTimestamp() {
        return message.bornTimestamp();
    }

    @Override
    public InetSocketAddress bornHost() {
        return message.bornHost();
    }

    @Override
    public InetSocketAddress storeHost() {
        return message.storeHost();
    }

    @Override
    public int reconsumeTimes() {
        return message.reconsumeTimes();
    }

    @Override
    public long preparedTransactionOffset() {
        return message.preparedTransactionOffset();
    }

    @Override
    public byte[] body() {
        return message.body();
    }
}
