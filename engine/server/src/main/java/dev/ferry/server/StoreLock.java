package dev.ferry.server;

import dev.ferry.remoting.FileErrors;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The lock a broker holds on its store directory while it runs, as Apache's broker holds the {@code lock} file in its
 * store root: two brokers writing one commit log would corrupt it. The operating system releases the lock when the
 * process ends, however it ends.
 */
final class StoreLock implements AutoCloseable {
    static final String FILE_NAME = "lock";

    private final FileChannel channel;

    private StoreLock(FileChannel channel) {
        this.channel = channel;
    }

    /** @throws StartupException naming {@code storeDir} when it cannot be created or another broker holds it */
    static StoreLock acquire(Path storeDir) {
        Path file = storeDir.resolve(FILE_NAME);
        FileChannel channel;
        try {
            Files.createDirectories(storeDir);
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new StartupException("storeDir", "cannot use " + storeDir.toAbsolutePath() + " ("
                    + FileErrors.reason(e) + ")", e);
        }
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (IOException e) {
            closeQuietly(channel);
            throw new StartupException("storeDir", "cannot lock " + file.toAbsolutePath() + " ("
                    + FileErrors.reason(e) + ")", e);
        } catch (OverlappingFileLockException e) {
            lock = null; // a broker of this process holds it
        }
        if (lock == null) {
            closeQuietly(channel);
            throw new StartupException("storeDir", storeDir.toAbsolutePath() + " is in use by another running "
                    + "broker; stop it or give this one its own store directory (--store-dir)", null);
        }
        return new StoreLock(channel);
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // the channel is dropped either way
        }
    }

    /** Releases the lock; the file stays, as an empty marker. */
    @Override
    public void close() {
        closeQuietly(channel);
    }
}
