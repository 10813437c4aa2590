package dev.ferry.bench.faults;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Fills the disk a run's brokers share, to make it look full to one of them or to all, and frees it: a file of
 * allocated blocks ({@code fallocate}, no bytes written) sized against the disk's used ratio as both brokers measure
 * it (what files hold over that plus what is usable). The brokers' diskSpaceWarningLevelRatio is set a few percent
 * above the disk's use at the start: {@code a-master}'s lowest, the others' higher.
 *
 * @param dir        where the ballast file goes (the brokers' disk)
 * @param basePercent {@code a-master}'s limit; the other brokers' is {@link #OTHERS_ABOVE} more
 */
record DiskBallast(Path dir, int basePercent) {
    /** How many points above {@code a-master}'s limit the other brokers refuse. */
    static final int OTHERS_ABOVE = 3;
    /**
     * Apache 5.3.3 takes no diskSpaceWarningLevelRatio below 35: a limit under it would mean something else to each
     * broker.
     */
    static final int LOWEST_LIMIT = 36;

    /**
     * A ballast for {@code dir}'s disk, or null when filling it would take more than half of what is left or this
     * machine has no {@code fallocate}.
     */
    static DiskBallast forDisk(Path dir) throws IOException {
        if (!hasFallocate()) {
            return null;
        }
        double used = usedRatio(Files.getFileStore(dir));
        int base = Math.max(LOWEST_LIMIT, (int) Math.ceil(used * 100) + 3);
        DiskBallast ballast = new DiskBallast(dir, base);
        FileStore store = Files.getFileStore(dir);
        if (ballast.bytesFor(base + OTHERS_ABOVE + 1.5) > store.getUsableSpace() / 2) {
            return null;
        }
        return ballast;
    }

    /** Each broker's diskSpaceWarningLevelRatio. */
    Map<String, Integer> limits() {
        return Map.of("a-master", basePercent, "a-slave", basePercent + OTHERS_ABOVE, "b-master",
                basePercent + OTHERS_ABOVE);
    }

    /** Fills the disk above {@code a-master}'s limit only ({@code a-master}) or above every broker's ({@code all}). */
    void fill(String target) throws IOException, InterruptedException {
        double percent = target.equals("all") ? basePercent + OTHERS_ABOVE + 1.5 : basePercent + 1.5;
        long bytes = bytesFor(percent);
        if (bytes <= 0) {
            return;
        }
        Process fallocate = new ProcessBuilder("fallocate", "-l", Long.toString(bytes), file().toString())
                .inheritIO().start();
        if (!fallocate.waitFor(60, TimeUnit.SECONDS) || fallocate.exitValue() != 0) {
            throw new IOException("fallocate of " + bytes + " bytes at " + file() + " failed");
        }
    }

    private static boolean hasFallocate() {
        try {
            Process probe = new ProcessBuilder("fallocate", "--version").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return probe.waitFor(10, TimeUnit.SECONDS) && probe.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    void free() throws IOException {
        Files.deleteIfExists(file());
    }

    private Path file() {
        return dir.resolve("disk-ballast");
    }

    /** Bytes more the disk needs for {@code percent} used, less what a ballast of now holds already. */
    private long bytesFor(double percent) throws IOException {
        FileStore store = Files.getFileStore(dir);
        long used = store.getTotalSpace() - store.getUnallocatedSpace();
        long entire = used + store.getUsableSpace();
        long existing = Files.exists(file()) ? Files.size(file()) : 0;
        return (long) (percent / 100 * entire) - used + existing;
    }

    static double usedRatio(FileStore store) throws IOException {
        long used = store.getTotalSpace() - store.getUnallocatedSpace();
        return (double) used / (used + store.getUsableSpace());
    }
}
