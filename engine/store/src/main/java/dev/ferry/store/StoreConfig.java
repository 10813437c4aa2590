package dev.ferry.store;

import dev.ferry.format.ConfigProblems;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Objects;
import java.util.Set;

/**
 * The store's configuration, validated once by {@link Builder#build()} with messages naming the bad key and value.
 * Defaults follow RocketMQ's.
 *
 * @param storeDir                      root directory (holds commitlog/, consumequeue/, index/, checkpoint, abort)
 * @param commitLogSegmentSize          bytes per commit-log segment file (default 1 GiB)
 * @param consumeQueueEntriesPerSegment 20-byte entries per consume-queue segment file (default 300,000)
 * @param flushMode                     async (default) or sync flush with group commit
 * @param flushInterval                 async commit-log flush and checkpoint interval (default 500 ms)
 * @param indexFlushInterval            how often the checkpoint also forces the index (default 10 s; recovery
 *                                      rebuilds what a crash took since then from the commit log)
 * @param syncFlushTimeout              how long a sync-flush {@code append} waits for its force (default 5 s;
 *                                      {@code appendAsync}'s future has no timeout of its own)
 * @param groupCommitLinger             longest a group commit waits for more appends before forcing (default 200 us;
 *                                      zero forces at once)
 * @param maxMessageBodySize            largest body accepted (default 4 MiB); an entry must also fit a segment
 * @param fileRetention                 commit-log segments older than this are deleted (default 72 h)
 * @param retentionCheckInterval        how often retention runs (default 10 s)
 * @param diskCleanRatio                above this used ratio the oldest segments are deleted early (default 0.75)
 * @param diskRejectRatio               above this used ratio appends fail with DISK_FULL (default 0.90)
 * @param diskCheckInterval             how long a disk usage reading is reused by the append path (default 1 s)
 * @param indexHashSlots                hash slots per index file (default 5,000,000)
 * @param indexMaxEntries               entries per index file (default 20,000,000)
 * @param maxEntriesScannedPerRead      consume-queue entries one filtered read may examine (default 16,000)
 * @param commitLogDir                  where the commit-log segments are (default {@code storeDir/commitlog}; Apache's
 *                                      storePathCommitLog, for a commit log on a disk of its own); disk usage is
 *                                      measured on its file system
 * @param deleteHours                   hours of the day (0..23, in {@code deleteZone}) in which expired segments are
 *                                      deleted (Apache's deleteWhen); empty, the default, deletes them at any hour.
 *                                      A disk above {@code diskCleanRatio} has them deleted at any hour either way
 * @param deleteZone                    the zone of {@code deleteHours} (default: the system's, as Apache's)
 */
public record StoreConfig(Path storeDir, int commitLogSegmentSize, int consumeQueueEntriesPerSegment,
                          FlushMode flushMode, Duration flushInterval, Duration indexFlushInterval,
                          Duration syncFlushTimeout,
                          Duration groupCommitLinger,
                          int maxMessageBodySize, Duration fileRetention, Duration retentionCheckInterval,
                          double diskCleanRatio, double diskRejectRatio, Duration diskCheckInterval,
                          int indexHashSlots, int indexMaxEntries, int maxEntriesScannedPerRead,
                          Path commitLogDir, Set<Integer> deleteHours, ZoneId deleteZone) {
    /** The store's wording of a bad value ({@code store.key=value: rule}); the first one throws. */
    private static final ConfigProblems CHECK = ConfigProblems.failingFast((key, value, rule) -> "store." + key + "="
            + value + ": " + rule);

    /** Smallest segment that still holds one maximal fixed header plus the end-of-segment marker. */
    static final int MIN_SEGMENT_SIZE = 4096;

    public StoreConfig {
        Objects.requireNonNull(storeDir, "storeDir");
        Objects.requireNonNull(flushMode, "flushMode");
        Objects.requireNonNull(commitLogDir, "commitLogDir");
        deleteHours = Set.copyOf(Objects.requireNonNull(deleteHours, "deleteHours"));
        for (int hour : deleteHours) {
            CHECK.require(hour >= 0 && hour <= 23, "deleteHours", deleteHours, "hours of the day are 0..23");
        }
        Objects.requireNonNull(deleteZone, "deleteZone");
        CHECK.atLeast("commitLogSegmentSize", commitLogSegmentSize, MIN_SEGMENT_SIZE);
        CHECK.atLeast("consumeQueueEntriesPerSegment", consumeQueueEntriesPerSegment, 1);
        CHECK.require((long) consumeQueueEntriesPerSegment * ConsumeQueue.ENTRY_SIZE <= Integer.MAX_VALUE,
                "consumeQueueEntriesPerSegment", consumeQueueEntriesPerSegment, "must fit a segment of at most 2 GiB");
        CHECK.positive("flushInterval", flushInterval);
        CHECK.positive("indexFlushInterval", indexFlushInterval);
        CHECK.positive("syncFlushTimeout", syncFlushTimeout);
        CHECK.notNegative("groupCommitLinger", groupCommitLinger);
        CHECK.atLeast("maxMessageBodySize", maxMessageBodySize, 0);
        CHECK.positive("fileRetention", fileRetention);
        CHECK.positive("retentionCheckInterval", retentionCheckInterval);
        CHECK.fraction("diskCleanRatio", diskCleanRatio);
        CHECK.fraction("diskRejectRatio", diskRejectRatio);
        CHECK.require(diskRejectRatio >= diskCleanRatio, "diskRejectRatio", diskRejectRatio,
                "must be >= diskCleanRatio " + diskCleanRatio);
        CHECK.notNegative("diskCheckInterval", diskCheckInterval);
        CHECK.atLeast("indexHashSlots", indexHashSlots, 1);
        CHECK.atLeast("indexMaxEntries", indexMaxEntries, 1);
        CHECK.require(IndexFile.fileSize(indexHashSlots, indexMaxEntries) <= Integer.MAX_VALUE, "indexMaxEntries",
                indexMaxEntries, "with indexHashSlots " + indexHashSlots + " makes an index file larger than 2 GiB");
        CHECK.atLeast("maxEntriesScannedPerRead", maxEntriesScannedPerRead, 1);
    }

    /** A builder with RocketMQ's defaults. */
    public static Builder builder(Path storeDir) {
        return new Builder(storeDir);
    }

    /** Builds a validated {@link StoreConfig}. */
    public static final class Builder {
        private final Path storeDir;
        private int commitLogSegmentSize = 1 << 30;
        private int consumeQueueEntriesPerSegment = 300_000;
        private FlushMode flushMode = FlushMode.ASYNC_FLUSH;
        private Duration flushInterval = Duration.ofMillis(500);
        private Duration indexFlushInterval = Duration.ofSeconds(10);
        private Duration syncFlushTimeout = Duration.ofSeconds(5);
        private Duration groupCommitLinger = Duration.ofNanos(200_000);
        private int maxMessageBodySize = 4 * 1024 * 1024;
        private Duration fileRetention = Duration.ofHours(72);
        private Duration retentionCheckInterval = Duration.ofSeconds(10);
        private double diskCleanRatio = 0.75;
        private double diskRejectRatio = 0.90;
        private Duration diskCheckInterval = Duration.ofSeconds(1);
        private int indexHashSlots = 5_000_000;
        private int indexMaxEntries = 20_000_000;
        private int maxEntriesScannedPerRead = 16_000;
        private Path commitLogDir;
        private Set<Integer> deleteHours = Set.of();
        private ZoneId deleteZone = ZoneId.systemDefault();

        private Builder(Path storeDir) {
            this.storeDir = storeDir;
        }

        public Builder commitLogSegmentSize(int value) {
            this.commitLogSegmentSize = value;
            return this;
        }

        public Builder consumeQueueEntriesPerSegment(int value) {
            this.consumeQueueEntriesPerSegment = value;
            return this;
        }

        public Builder flushMode(FlushMode value) {
            this.flushMode = value;
            return this;
        }

        public Builder flushInterval(Duration value) {
            this.flushInterval = value;
            return this;
        }

        public Builder indexFlushInterval(Duration value) {
            this.indexFlushInterval = value;
            return this;
        }

        public Builder syncFlushTimeout(Duration value) {
            this.syncFlushTimeout = value;
            return this;
        }

        public Builder groupCommitLinger(Duration value) {
            this.groupCommitLinger = value;
            return this;
        }

        public Builder maxMessageBodySize(int value) {
            this.maxMessageBodySize = value;
            return this;
        }

        public Builder fileRetention(Duration value) {
            this.fileRetention = value;
            return this;
        }

        public Builder retentionCheckInterval(Duration value) {
            this.retentionCheckInterval = value;
            return this;
        }

        public Builder diskCleanRatio(double value) {
            this.diskCleanRatio = value;
            return this;
        }

        public Builder diskRejectRatio(double value) {
            this.diskRejectRatio = value;
            return this;
        }

        public Builder diskCheckInterval(Duration value) {
            this.diskCheckInterval = value;
            return this;
        }

        public Builder indexHashSlots(int value) {
            this.indexHashSlots = value;
            return this;
        }

        public Builder indexMaxEntries(int value) {
            this.indexMaxEntries = value;
            return this;
        }

        public Builder maxEntriesScannedPerRead(int value) {
            this.maxEntriesScannedPerRead = value;
            return this;
        }

        /** Where the commit-log segments are; by default {@code commitlog/} in the store directory. */
        public Builder commitLogDir(Path value) {
            this.commitLogDir = value;
            return this;
        }

        /** Hours of the day expired segments are deleted in; empty for any hour. */
        public Builder deleteHours(Set<Integer> value) {
            this.deleteHours = value;
            return this;
        }

        public Builder deleteZone(ZoneId value) {
            this.deleteZone = value;
            return this;
        }

        public StoreConfig build() {
            return new StoreConfig(storeDir, commitLogSegmentSize, consumeQueueEntriesPerSegment, flushMode,
                flushInterval, indexFlushInterval, syncFlushTimeout, groupCommitLinger, maxMessageBodySize,
                fileRetention,
                retentionCheckInterval, diskCleanRatio, diskRejectRatio, diskCheckInterval, indexHashSlots,
                indexMaxEntries, maxEntriesScannedPerRead,
                commitLogDir != null ? commitLogDir : storeDir.resolve("commitlog"), deleteHours, deleteZone);
        }
    }
}
