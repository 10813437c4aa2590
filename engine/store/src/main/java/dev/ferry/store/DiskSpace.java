package dev.ferry.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongSupplier;

/** How full the store's disk is. Injected so that tests can simulate a full disk. */
public interface DiskSpace {

    long totalBytes();

    long usableBytes();

    /**
     * Bytes no file holds, including blocks reserved for the superuser, which {@link #usableBytes()} leaves out;
     * a disk without reserved blocks has as many of these as usable ones.
     */
    default long freeBytes() {
        return usableBytes();
    }

    /**
     * Used fraction of the space this process could have, 0 to 1: what files hold over what files hold plus what is
     * usable, as Apache RocketMQ's diskMaxUsedSpaceRatio and diskSpaceWarningLevelRatio measure a disk. Reserved blocks
     * count on neither side, so the same config file means the same on either broker.
     */
    default double usedRatio() {
        long used = Math.max(0, totalBytes() - freeBytes());
        long usable = usableBytes();
        return used + usable <= 0 ? 1.0 : (double) used / (used + usable);
    }

    /** The real file store holding {@code dir} (which must exist). */
    static DiskSpace of(Path dir) {
        try {
            FileStore store = Files.getFileStore(dir);
            long total = store.getTotalSpace();
            return new DiskSpace() {
                @Override
                public long totalBytes() {
                    return total;
                }

                @Override
                public long usableBytes() {
                    try {
                        return store.getUsableSpace();
                    } catch (IOException e) {
                        throw new UncheckedIOException("cannot read usable space of " + dir, e);
                    }
                }

                @Override
                public long freeBytes() {
                    try {
                        return store.getUnallocatedSpace();
                    } catch (IOException e) {
                        throw new UncheckedIOException("cannot read free space of " + dir, e);
                    }
                }
            };
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the file store of " + dir, e);
        }
    }

    /** A disk of {@code totalBytes} whose usable bytes come from a supplier. */
    static DiskSpace of(long totalBytes, LongSupplier usableBytes) {
        return new DiskSpace() {
            @Override
            public long totalBytes() {
                return totalBytes;
            }

            @Override
            public long usableBytes() {
                return usableBytes.getAsLong();
            }
        };
    }
}
