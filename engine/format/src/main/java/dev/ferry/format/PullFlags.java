package dev.ferry.format;

/** The bits of PULL_MESSAGE's {@code sysFlag} header field. */
public final class PullFlags {
    /** The request carries the consumer's offset to commit. */
    public static final int COMMIT_OFFSET = 0x1;
    /** The broker may hold the request until messages arrive. */
    public static final int SUSPEND = 0x2;
    /** The request carries its subscription expression, which then replaces the registered one. */
    public static final int SUBSCRIPTION = 0x4;
    /** Class filter mode, from RocketMQ's past. */
    public static final int CLASS_FILTER = 0x8;
    /** The request comes from a lite-pull consumer. */
    public static final int LITE_PULL = 0x10;

    private PullFlags() {
    }

    public static boolean has(int sysFlag, int flag) {
        return (sysFlag & flag) != 0;
    }
}
