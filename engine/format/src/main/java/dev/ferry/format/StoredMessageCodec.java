package dev.ferry.format;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;

/**
 * RocketMQ's stored-message layout, byte for byte (big-endian): TOTALSIZE 4 | MAGICCODE 4 | BODYCRC 4 | QUEUEID 4 |
 * FLAG 4 | QUEUEOFFSET 8 | PHYSICALOFFSET 8 | SYSFLAG 4 | BORNTIMESTAMP 8 | BORNHOST 8 or 20 | STORETIMESTAMP 8 |
 * STOREHOST 8 or 20 | RECONSUMETIMES 4 | PREPAREDTRANSACTIONOFFSET 8 | BODY int length + bytes | TOPIC 1-byte (V1) or
 * 2-byte (V2) length + bytes | PROPERTIES short length + bytes. A segment ends with a blank marker
 * {@code [remaining][BLANK_MAGIC]} when the next entry does not fit.
 *
 * <p>The one codec of that layout: the store writes and checks its log with it, pull responses carry its entries, and
 * the client reads them back through {@link StoredMessageView}. Pure functions over buffers with absolute indexes;
 * the caller's buffer position is never moved.
 */
public final class StoredMessageCodec {
    public static final int MAGIC_V1 = 0xDAA320A7;
    public static final int MAGIC_V2 = 0xDAA320AB;
    public static final int BLANK_MAGIC = 0xCBD43194;
    /** TOTALSIZE + MAGICCODE of the end-of-segment marker; every segment keeps room for it. */
    public static final int BLANK_MARKER_SIZE = 8;

    public static final int TOTAL_SIZE_POSITION = 0;
    public static final int MAGIC_POSITION = 4;
    public static final int BODY_CRC_POSITION = 8;
    public static final int QUEUE_ID_POSITION = 12;
    public static final int FLAG_POSITION = 16;
    public static final int QUEUE_OFFSET_POSITION = 20;
    public static final int PHYSICAL_OFFSET_POSITION = 28;
    public static final int SYS_FLAG_POSITION = 36;
    public static final int BORN_TIMESTAMP_POSITION = 40;
    public static final int BORN_HOST_POSITION = 48;
    /** The smallest entry: the 91-byte fixed part of V1 with IPv4 hosts plus a one-byte topic. */
    public static final int MIN_ENTRY_SIZE = 92;

    private StoredMessageCodec() {
    }

    /** RocketMQ's body CRC: CRC32 with the top bit cleared. */
    public static int bodyCrc(ByteBuffer body) {
        CRC32 crc = new CRC32();
        crc.update(body);
        return (int) (crc.getValue() & 0x7FFFFFFF);
    }

    public static int hostLength(boolean v6) {
        return v6 ? 20 : 8;
    }

    public static int storeTimestampPosition(int sysFlag) {
        return BORN_HOST_POSITION + hostLength((sysFlag & SysFlags.BORNHOST_V6) != 0);
    }

    public static int storeHostPosition(int sysFlag) {
        return storeTimestampPosition(sysFlag) + 8;
    }

    public static int reconsumeTimesPosition(int sysFlag) {
        return storeHostPosition(sysFlag) + hostLength((sysFlag & SysFlags.STOREHOST_V6) != 0);
    }

    public static int preparedTransactionOffsetPosition(int sysFlag) {
        return reconsumeTimesPosition(sysFlag) + 4;
    }

    public static int bodyLengthPosition(int sysFlag) {
        return preparedTransactionOffsetPosition(sysFlag) + 8;
    }

    public static int encodedLength(int sysFlag, int bodyLength, int topicLength, int propertiesLength, boolean v2) {
        return bodyLengthPosition(sysFlag) + 4 + bodyLength + (v2 ? 2 : 1) + topicLength + 2 + propertiesLength;
    }

    /**
     * What {@link #encode} writes for one message besides the offsets and the store time, which the log assigns.
     * The lengths and the CRC are computed once, before the writer takes its lock.
     */
    public interface Encodable {
        int magicCode();

        int bodyCrc();

        int queueId();

        int flag();

        /** The sys flag, its host bits matching the hosts. */
        int sysFlag();

        long bornTimestamp();

        InetSocketAddress bornHost();

        InetSocketAddress storeHost();

        int reconsumeTimes();

        long preparedTransactionOffset();

        byte[] body();

        /** UTF-8 topic, at most 127 bytes under V1's magic. */
        byte[] topicBytes();

        /** UTF-8 properties, at most {@code Short.MAX_VALUE} bytes. */
        byte[] propertiesBytes();

        /** The entry's total size, {@link #encodedLength} of the parts above. */
        int encodedLength();
    }

    /** Writes an entry at {@code at}; TOTALSIZE is written last so a torn write never looks complete. */
    public static void encode(ByteBuffer target, int at, Encodable m, long queueOffset, long physicalOffset,
                              long storeTimestamp) {
        int sysFlag = m.sysFlag();
        target.putInt(at + MAGIC_POSITION, m.magicCode());
        target.putInt(at + BODY_CRC_POSITION, m.bodyCrc());
        target.putInt(at + QUEUE_ID_POSITION, m.queueId());
        target.putInt(at + FLAG_POSITION, m.flag());
        target.putLong(at + QUEUE_OFFSET_POSITION, queueOffset);
        target.putLong(at + PHYSICAL_OFFSET_POSITION, physicalOffset);
        target.putInt(at + SYS_FLAG_POSITION, sysFlag);
        target.putLong(at + BORN_TIMESTAMP_POSITION, m.bornTimestamp());
        putHost(target, at + BORN_HOST_POSITION, m.bornHost());
        target.putLong(at + storeTimestampPosition(sysFlag), storeTimestamp);
        putHost(target, at + storeHostPosition(sysFlag), m.storeHost());
        target.putInt(at + reconsumeTimesPosition(sysFlag), m.reconsumeTimes());
        target.putLong(at + preparedTransactionOffsetPosition(sysFlag), m.preparedTransactionOffset());
        byte[] body = m.body();
        int p = at + bodyLengthPosition(sysFlag);
        target.putInt(p, body.length);
        p += 4;
        target.put(p, body);
        p += body.length;
        byte[] topic = m.topicBytes();
        if (m.magicCode() == MAGIC_V2) {
            target.putShort(p, (short) topic.length);
            p += 2;
        } else {
            target.put(p, (byte) topic.length);
            p += 1;
        }
        target.put(p, topic);
        p += topic.length;
        byte[] properties = m.propertiesBytes();
        target.putShort(p, (short) properties.length);
        target.put(p + 2, properties);
        target.putInt(at + TOTAL_SIZE_POSITION, m.encodedLength());
    }

    /** Writes the end-of-segment marker covering {@code remaining} bytes. */
    public static void encodeBlank(ByteBuffer target, int at, int remaining) {
        target.putInt(at + MAGIC_POSITION, BLANK_MAGIC);
        target.putInt(at + TOTAL_SIZE_POSITION, remaining);
    }

    private static void putHost(ByteBuffer target, int at, InetSocketAddress host) {
        byte[] address = host.getAddress().getAddress();
        target.put(at, address);
        target.putInt(at + address.length, host.getPort());
    }

    /**
     * Verifies the entry at {@code at} of a segment whose written or mapped data ends at {@code limit}: magic code,
     * sizes that add up, the physical offset it claims, the body CRC, and that topic and properties are not torn
     * (no zero bytes; non-empty properties end with the pair separator).
     */
    public static EntryCheck check(ByteBuffer segment, int at, int limit, long physicalOffset) {
        int remaining = limit - at;
        if (remaining < BLANK_MARKER_SIZE) {
            return EntryCheck.corrupt("fewer than " + BLANK_MARKER_SIZE + " bytes left in the segment");
        }
        int totalSize = segment.getInt(at + TOTAL_SIZE_POSITION);
        int magic = segment.getInt(at + MAGIC_POSITION);
        if (totalSize == 0 && magic == 0) {
            return EntryCheck.END;
        }
        if (magic == BLANK_MAGIC) {
            return totalSize == remaining ? EntryCheck.blank(totalSize)
                : EntryCheck.corrupt("blank marker of " + totalSize + " bytes with " + remaining + " left");
        }
        if (magic != MAGIC_V1 && magic != MAGIC_V2) {
            return EntryCheck.corrupt("bad magic code " + Integer.toHexString(magic));
        }
        if (totalSize < MIN_ENTRY_SIZE || totalSize > remaining - BLANK_MARKER_SIZE) {
            return EntryCheck.corrupt("total size " + totalSize + " out of range, " + remaining + " left");
        }
        if (segment.getLong(at + PHYSICAL_OFFSET_POSITION) != physicalOffset) {
            return EntryCheck.corrupt("physical offset field does not match position " + physicalOffset);
        }
        return checkVariablePart(segment, at, totalSize, magic == MAGIC_V2, true);
    }

    /**
     * Whether {@code entry} (exactly one entry's bytes) is a whole, intact message stored at {@code physicalOffset}:
     * what a lookup by offset must check before it trusts the bytes, since any offset may be asked for, one inside
     * another message's body included.
     */
    public static boolean isIntactEntry(ByteBuffer entry, long physicalOffset) {
        int totalSize = entry.remaining();
        if (totalSize < MIN_ENTRY_SIZE || entry.getInt(TOTAL_SIZE_POSITION) != totalSize) {
            return false;
        }
        int magic = entry.getInt(MAGIC_POSITION);
        return (magic == MAGIC_V1 || magic == MAGIC_V2) && entry.getLong(PHYSICAL_OFFSET_POSITION) == physicalOffset
            && checkVariablePart(entry, 0, totalSize, magic == MAGIC_V2, true).verdict() == Verdict.MESSAGE;
    }

    /**
     * Why {@code record} (exactly one entry's bytes, as a pull response carries them) is not laid out as this codec
     * lays out entries, or null when it is: a known magic code and lengths that add up to its total size, so that a
     * {@link StoredMessageView} over it reads only inside it. The content (CRC, torn bytes) is the store's to check.
     */
    public static String layoutProblem(ByteBuffer record) {
        int totalSize = record.remaining();
        if (totalSize < MIN_ENTRY_SIZE) {
            return "a record of " + totalSize + " bytes is shorter than the smallest entry, " + MIN_ENTRY_SIZE;
        }
        if (record.getInt(TOTAL_SIZE_POSITION) != totalSize) {
            return "the record claims " + record.getInt(TOTAL_SIZE_POSITION) + " bytes but has " + totalSize;
        }
        int magic = record.getInt(MAGIC_POSITION);
        if (magic != MAGIC_V1 && magic != MAGIC_V2) {
            return "unknown magic code 0x" + Integer.toHexString(magic);
        }
        EntryCheck check = checkVariablePart(record, 0, totalSize, magic == MAGIC_V2, false);
        return check.verdict() == Verdict.MESSAGE ? null : check.problem();
    }

    /** Lengths that add up; with {@code content}, also the body CRC and no sign of a torn write. */
    private static EntryCheck checkVariablePart(ByteBuffer segment, int at, int totalSize, boolean v2,
                                                boolean content) {
        int sysFlag = segment.getInt(at + SYS_FLAG_POSITION);
        int end = at + totalSize;
        int p = at + bodyLengthPosition(sysFlag);
        if (p + 4 > end) {
            return EntryCheck.corrupt("the fixed part is longer than the entry");
        }
        int bodyLength = segment.getInt(p);
        p += 4;
        if (bodyLength < 0 || p + bodyLength > end) {
            return EntryCheck.corrupt("body length " + bodyLength + " out of range");
        }
        if (content && bodyCrc(segment.slice(p, bodyLength)) != segment.getInt(at + BODY_CRC_POSITION)) {
            return EntryCheck.corrupt("body CRC mismatch");
        }
        p += bodyLength;
        if (p + (v2 ? 2 : 1) > end) {
            return EntryCheck.corrupt("topic length beyond the entry");
        }
        int topicLength = v2 ? segment.getShort(p) : segment.get(p);
        p += v2 ? 2 : 1;
        if (topicLength <= 0 || p + topicLength + 2 > end || content && containsZero(segment, p, topicLength)) {
            return EntryCheck.corrupt("topic torn or out of range");
        }
        p += topicLength;
        int propertiesLength = segment.getShort(p);
        p += 2;
        if (propertiesLength < 0 || p + propertiesLength != end) {
            return EntryCheck.corrupt("sizes do not add up to total size " + totalSize);
        }
        if (content && propertiesLength > 0 && (segment.get(end - 1) != MessageProperties.PROPERTY_SEPARATOR
            || containsZero(segment, p, propertiesLength))) {
            return EntryCheck.corrupt("properties torn");
        }
        return EntryCheck.message(totalSize);
    }

    private static boolean containsZero(ByteBuffer buffer, int from, int length) {
        for (int i = from; i < from + length; i++) {
            if (buffer.get(i) == 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * The verdict on one position of a segment.
     *
     * @param verdict what is there
     * @param size    bytes it covers (entry or blank marker), 0 otherwise
     * @param problem why it is corrupt, empty otherwise
     */
    public record EntryCheck(Verdict verdict, int size, String problem) {
        static final EntryCheck END = new EntryCheck(Verdict.END, 0, "");

        static EntryCheck message(int size) {
            return new EntryCheck(Verdict.MESSAGE, size, "");
        }

        static EntryCheck blank(int size) {
            return new EntryCheck(Verdict.BLANK, size, "");
        }

        static EntryCheck corrupt(String problem) {
            return new EntryCheck(Verdict.CORRUPT, 0, problem);
        }
    }

    /** What a position of a segment holds. */
    public enum Verdict {
        /** A complete, verified message entry. */
        MESSAGE,
        /** The end-of-segment marker. */
        BLANK,
        /** Zeroes: nothing was written from here on. */
        END,
        /** A torn or damaged entry. */
        CORRUPT
    }
}
