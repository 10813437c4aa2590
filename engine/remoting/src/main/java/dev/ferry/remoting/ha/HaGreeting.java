package dev.ferry.remoting.ha;

import io.netty.buffer.ByteBuf;
import java.util.Optional;

/**
 * What a Ferry master sends first on its HA port: {@link #MAGIC}, the version, whether the hello must be signed, and
 * a fresh nonce the signature covers (so a recorded hello is worth nothing on another connection). Apache's master
 * sends nothing before the slave's first report, which is how a Ferry slave tells the two apart.
 *
 * @param credentialsRequired whether the master checks credentials (its authentication is on)
 * @param nonce               {@value #NONCE_SIZE} random bytes
 */
record HaGreeting(boolean credentialsRequired, byte[] nonce) {
    /** "FRHA": opens a greeting, a hello and a handshake's result. */
    static final int MAGIC = 0x46524841;
    static final int VERSION = 1;
    static final int NONCE_SIZE = 16;
    /** Magic, version, flags, two reserved bytes, nonce. */
    static final int SIZE = 4 + 1 + 1 + 2 + NONCE_SIZE;
    /** Magic and a {@link HaRefusal} code (or {@link #ACCEPTED}). */
    static final int RESULT_SIZE = 5;
    static final int ACCEPTED = 0;
    private static final int CREDENTIALS_REQUIRED = 1;

    HaGreeting {
        if (nonce.length != NONCE_SIZE) {
            throw new IllegalArgumentException("a nonce is " + NONCE_SIZE + " bytes");
        }
    }

    void writeTo(ByteBuf out) {
        out.writeInt(MAGIC).writeByte(VERSION).writeByte(credentialsRequired ? CREDENTIALS_REQUIRED : 0)
                .writeShort(0).writeBytes(nonce);
    }

    /**
     * Reads a greeting from {@link #SIZE} readable bytes; empty when they are not a Ferry master's greeting of this
     * version.
     */
    static Optional<HaGreeting> read(ByteBuf in) {
        int magic = in.readInt();
        int version = in.readUnsignedByte();
        int flags = in.readUnsignedByte();
        in.skipBytes(2);
        byte[] nonce = new byte[NONCE_SIZE];
        in.readBytes(nonce);
        if (magic != MAGIC || version != VERSION || (flags & ~CREDENTIALS_REQUIRED) != 0) {
            return Optional.empty();
        }
        return Optional.of(new HaGreeting((flags & CREDENTIALS_REQUIRED) != 0, nonce));
    }

    static void writeResult(ByteBuf out, int code) {
        out.writeInt(MAGIC).writeByte(code);
    }
}
