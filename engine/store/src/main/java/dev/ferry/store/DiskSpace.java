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

    /** Used fraction of the disk, 0 to 1. */
    default double usedRatio() {
        long total = totalBytes();
        return total <= 0 ? 1.0 : 1.0 - (double) usableBytes() / total;
    }

    /** The real file store holding {@code dir} (which must exist). */
    static DiskSpace of(Path dir) {
        try {
            FileStore store = Files.getFileStore(dir);
            return of(store.getTotalSpace(), () -> {
                try {
                    return store.getUsableSpace();
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read usable space of " + dir, e);
                }
            });
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
