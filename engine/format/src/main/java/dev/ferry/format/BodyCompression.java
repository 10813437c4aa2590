package dev.ferry.format;

import java.io.ByteArrayOutputStream;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * The zlib compression of message bodies that the sys flag announces ({@link SysFlags#COMPRESSED}, type zlib).
 * Inflating is bounded: a small body that claims to grow without end is refused, not followed.
 */
public final class BodyCompression {
    /** The level RocketMQ's producers use by default. */
    public static final int DEFAULT_LEVEL = 5;
    private static final int CHUNK = 8192;

    private BodyCompression() {
    }

    public static byte[] deflate(byte[] data, int level) {
        Deflater deflater = new Deflater(level);
        try {
            deflater.setInput(data);
            deflater.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, data.length / 2));
            byte[] chunk = new byte[CHUNK];
            while (!deflater.finished()) {
                out.write(chunk, 0, deflater.deflate(chunk));
            }
            return out.toByteArray();
        } finally {
            deflater.end();
        }
    }

    /**
     * Inflates a body that {@code sysFlag} marks compressed.
     *
     * @throws IllegalArgumentException when the type is not zlib, the data is corrupt or truncated, or it inflates
     *                                  to more than {@code maxLength} bytes
     */
    public static byte[] inflate(byte[] compressed, int sysFlag, int maxLength) {
        int type = SysFlags.compressionType(sysFlag);
        if (type != 0 && type != 3) {
            throw new IllegalArgumentException("the body is compressed with type " + type + "; only zlib (3) is "
                    + "supported");
        }
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(compressed);
            ByteArrayOutputStream out = new ByteArrayOutputStream(Math.min(maxLength,
                    Math.max(64, compressed.length * 4)));
            byte[] chunk = new byte[CHUNK];
            while (!inflater.finished()) {
                int n = inflater.inflate(chunk, 0, Math.min(chunk.length, maxLength - out.size() + 1));
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new IllegalArgumentException("the zlib body is truncated");
                }
                out.write(chunk, 0, n);
                if (out.size() > maxLength) {
                    throw new IllegalArgumentException("the body inflates to more than " + maxLength + " bytes");
                }
            }
            return out.toByteArray();
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("the zlib body is corrupt: " + e.getMessage(), e);
        } finally {
            inflater.end();
        }
    }
}
