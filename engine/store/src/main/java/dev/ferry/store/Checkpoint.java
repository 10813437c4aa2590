package dev.ferry.store;

import dev.ferry.format.AtomicFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Optional;
import java.util.zip.CRC32;

/**
 * What is known durable, in the 4 KiB {@code checkpoint} file. RocketMQ's fields first (physicMsgTimestamp @0,
 * logicsMsgTimestamp @8, indexMsgTimestamp @16, masterFlushedOffset @24, confirmPhyOffset @32), then Ferry's: the
 * commit-log offset up to which consume-queue entries (@40) and index entries (@48) are durable, and a CRC32 of bytes
 * 0-55 (@56). Written through {@link AtomicFile}, so a crash leaves the old or the new checkpoint, never a mix.
 *
 * @param physicalTimestamp      store timestamp of the last durable commit-log message
 * @param logicsTimestamp        store timestamp of the last durable consume-queue entry's message
 * @param indexTimestamp         store timestamp of the last durable index entry's message
 * @param commitLogFlushedOffset commit-log offset up to which bytes are forced
 * @param consumeQueueOffset     commit-log offset up to which consume-queue entries are forced
 * @param indexOffset            commit-log offset up to which index entries are forced
 */
record Checkpoint(long physicalTimestamp, long logicsTimestamp, long indexTimestamp, long commitLogFlushedOffset,
                  long consumeQueueOffset, long indexOffset) {
    static final String FILE_NAME = "checkpoint";
    private static final System.Logger LOG = System.getLogger(Checkpoint.class.getName());
    private static final int FILE_SIZE = 4096;
    private static final int CRC_POSITION = 56;

    /** Commit-log offset from which everything must be re-verified and re-dispatched. */
    long safeOffset() {
        return Math.min(commitLogFlushedOffset, Math.min(consumeQueueOffset, indexOffset));
    }

    /**
     * Reads the checkpoint in {@code storeDir} (or its backup); empty when there is none. A checkpoint only bounds how
     * far back recovery looks, so when neither copy is readable recovery goes back to the start of the commit log,
     * which costs time, never data.
     */
    static Optional<Checkpoint> read(Path storeDir) {
        return read(file(storeDir));
    }

    /** Reads through {@code file}, which then remembers whether the file itself was unreadable. */
    static Optional<Checkpoint> read(AtomicFile file) {
        try {
            return file.read(Checkpoint::decode);
        } catch (AtomicFile.UnreadableFileException e) {
            LOG.log(System.Logger.Level.WARNING, "{0}; recovering from the start of the commit log", e.getMessage());
            return Optional.empty();
        }
    }

    /** The checkpoint file of a store: one per store, so that what a read found is known to the writes. */
    static AtomicFile file(Path storeDir) {
        return new AtomicFile(storeDir.resolve(FILE_NAME));
    }

    private static Checkpoint decode(byte[] content) {
        ByteBuffer bytes = ByteBuffer.wrap(content);
        if (bytes.capacity() < CRC_POSITION + 4 || bytes.getInt(CRC_POSITION) != crc(bytes)) {
            throw new IllegalArgumentException("damaged checkpoint: length or CRC does not match");
        }
        return new Checkpoint(bytes.getLong(0), bytes.getLong(8), bytes.getLong(16), bytes.getLong(32),
            bytes.getLong(40), bytes.getLong(48));
    }

    /** Writes durably and atomically through {@code file}. */
    void write(AtomicFile file) {
        ByteBuffer bytes = ByteBuffer.allocate(FILE_SIZE);
        bytes.putLong(0, physicalTimestamp).putLong(8, logicsTimestamp).putLong(16, indexTimestamp)
            .putLong(24, 0L).putLong(32, commitLogFlushedOffset).putLong(40, consumeQueueOffset)
            .putLong(48, indexOffset);
        bytes.putInt(CRC_POSITION, crc(bytes));
        try {
            file.write(bytes.array());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write checkpoint " + file.path(), e);
        }
    }

    private static int crc(ByteBuffer bytes) {
        CRC32 crc = new CRC32();
        crc.update(bytes.slice(0, CRC_POSITION));
        return (int) crc.getValue();
    }
}
