package dev.ferry.remoting.codec;

import io.netty.buffer.ByteBuf;

/** Writes integers as ASCII decimal digits straight into a buffer, without a String in between. */
final class Decimal {
    private Decimal() {
    }

    /** Writes {@code value} and returns the number of bytes written. */
    static int write(ByteBuf out, long value) {
        if (value == Long.MIN_VALUE) {
            return out.writeCharSequence("-9223372036854775808", java.nio.charset.StandardCharsets.US_ASCII);
        }
        boolean negative = value < 0;
        long v = negative ? -value : value;
        int digits = 1;
        for (long t = v; t >= 10; t /= 10) {
            digits++;
        }
        int length = digits + (negative ? 1 : 0);
        out.ensureWritable(length);
        int start = out.writerIndex();
        int i = start + length;
        do {
            out.setByte(--i, (int) ('0' + v % 10));
            v /= 10;
        } while (v != 0);
        if (negative) {
            out.setByte(start, '-');
        }
        out.writerIndex(start + length);
        return length;
    }
}
