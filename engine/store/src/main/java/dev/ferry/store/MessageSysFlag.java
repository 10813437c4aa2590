package dev.ferry.store;

/** RocketMQ's sys flag bits, as far as the store needs them. */
public final class MessageSysFlag {
    public static final int COMPRESSED = 0x1;
    public static final int MULTI_TAGS = 0x2;
    public static final int TRANSACTION_NOT_TYPE = 0x0;
    public static final int TRANSACTION_PREPARED_TYPE = 0x4;
    public static final int TRANSACTION_COMMIT_TYPE = 0x8;
    public static final int TRANSACTION_ROLLBACK_TYPE = 0xC;
    public static final int BORNHOST_V6 = 0x10;
    public static final int STOREHOST_V6 = 0x20;

    private static final int TRANSACTION_MASK = 0xC;

    private MessageSysFlag() {
    }

    /** The transaction bits (2-3) of a sys flag. */
    public static int transactionType(int sysFlag) {
        return sysFlag & TRANSACTION_MASK;
    }

    /** Prepared and rolled-back transactional messages are stored but never dispatched to consume queues. */
    public static boolean isDispatchedToConsumeQueue(int sysFlag) {
        int type = transactionType(sysFlag);
        return type == TRANSACTION_NOT_TYPE || type == TRANSACTION_COMMIT_TYPE;
    }
}
