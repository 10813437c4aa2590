package dev.ferry.format;

/**
 * The bits of a message's sys flag, as sent in send headers and stored in every entry: compression, multi-tag
 * topics, the transaction state (bits 2-3), IPv6 hosts, and the compression type (bits 8-10).
 */
public final class SysFlags {
    public static final int COMPRESSED = 0x1;
    public static final int MULTI_TAGS = 0x2;
    public static final int TRANSACTION_NOT_TYPE = 0x0;
    public static final int TRANSACTION_PREPARED_TYPE = 0x4;
    public static final int TRANSACTION_COMMIT_TYPE = 0x8;
    public static final int TRANSACTION_ROLLBACK_TYPE = 0xC;
    public static final int BORNHOST_V6 = 0x10;
    public static final int STOREHOST_V6 = 0x20;
    /** Compression type zlib in bits 8-10; type 0 means zlib too, as older clients sent no type. */
    public static final int ZLIB = 3 << 8;

    private static final int TRANSACTION_MASK = 0xC;
    private static final int COMPRESSION_TYPE_SHIFT = 8;
    private static final int COMPRESSION_TYPE_MASK = 0x7;

    private SysFlags() {
    }

    /** The transaction bits (2-3) of a sys flag. */
    public static int transactionType(int sysFlag) {
        return sysFlag & TRANSACTION_MASK;
    }

    /** {@code sysFlag} with its transaction bits replaced by {@code type}. */
    public static int withTransactionType(int sysFlag, int type) {
        return (sysFlag & ~TRANSACTION_MASK) | (type & TRANSACTION_MASK);
    }

    /** Prepared and rolled-back transactional messages are stored but never dispatched to consume queues. */
    public static boolean isDispatchedToConsumeQueue(int sysFlag) {
        int type = transactionType(sysFlag);
        return type == TRANSACTION_NOT_TYPE || type == TRANSACTION_COMMIT_TYPE;
    }

    public static boolean isCompressed(int sysFlag) {
        return (sysFlag & COMPRESSED) != 0;
    }

    /** The compression type of bits 8-10: 0 or 3 is zlib, 1 LZ4, 2 ZSTD. */
    public static int compressionType(int sysFlag) {
        return (sysFlag >> COMPRESSION_TYPE_SHIFT) & COMPRESSION_TYPE_MASK;
    }

    public static boolean isBornHostV6(int sysFlag) {
        return (sysFlag & BORNHOST_V6) != 0;
    }

    public static boolean isStoreHostV6(int sysFlag) {
        return (sysFlag & STOREHOST_V6) != 0;
    }
}
