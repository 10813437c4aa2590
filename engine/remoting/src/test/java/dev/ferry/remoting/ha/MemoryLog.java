package dev.ferry.remoting.ha;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Optional;

/** A commit log in memory for the HA tests: the master's ({@link HaSource}) or a slave's ({@link HaFrameSink}). */
final class MemoryLog implements HaSource, HaFrameSink {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    synchronized void append(byte[] data) {
        bytes.writeBytes(data);
    }

    synchronized byte[] bytes() {
        return bytes.toByteArray();
    }

    @Override
    public long minOffset() {
        return 0;
    }

    @Override
    public synchronized long endOffset() {
        return bytes.size();
    }

    @Override
    public synchronized Optional<ByteBuffer> read(long offset, int maxBytes) {
        byte[] all = bytes.toByteArray();
        int length = (int) Math.min(maxBytes, all.length - offset);
        return length > 0 ? Optional.of(ByteBuffer.wrap(Arrays.copyOfRange(all, (int) offset, (int) offset + length)))
                : Optional.empty();
    }

    @Override
    public void connected() {
    }

    @Override
    public synchronized long accept(long offset, ByteBuffer data) {
        if (offset != bytes.size()) {
            throw new IllegalStateException("expected " + bytes.size() + ", got " + offset);
        }
        byte[] copy = new byte[data.remaining()];
        data.get(copy);
        bytes.writeBytes(copy);
        return bytes.size();
    }
}
