package dev.ferry.remoting.protocol;

/** How a command header is serialized: the high byte of a frame's second word. */
public enum SerializeType {
    /** A JSON object (the Apache client's default). */
    JSON(0),
    /** RocketMQ's compact binary layout. */
    ROCKETMQ(1);

    private final byte code;

    SerializeType(int code) {
        this.code = (byte) code;
    }

    public byte code() {
        return code;
    }

    /** Returns the type for a frame's type byte, or {@code null} when the byte names none. */
    public static SerializeType ofCode(int code) {
        return switch (code) {
            case 0 -> JSON;
            case 1 -> ROCKETMQ;
            default -> null;
        };
    }
}
