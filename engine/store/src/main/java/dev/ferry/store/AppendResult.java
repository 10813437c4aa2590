package dev.ferry.store;

import dev.ferry.format.OffsetMessageId;
import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * What the store did with one append. For a rejected append only {@link #status()} and {@link #detail()} carry meaning
 * and the offsets are -1.
 *
 * @param status          the outcome
 * @param physicalOffset  commit-log offset of the stored entry
 * @param size            stored entry size in bytes
 * @param queueOffset     logical offset in the consume queue (0 for prepared/rolled-back transactional messages)
 * @param storeTimestamp  store timestamp written into the entry
 * @param storeHost       store host written into the entry (for the offset message id)
 * @param detail          human-readable reason for a rejection, empty when stored
 */
public record AppendResult(AppendStatus status, long physicalOffset, int size, long queueOffset, long storeTimestamp,
                           InetSocketAddress storeHost, String detail) {

    public AppendResult {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(detail, "detail");
    }

    static AppendResult rejected(AppendStatus status, String detail) {
        return new AppendResult(status, -1, 0, -1, 0, null, detail);
    }

    AppendResult withStatus(AppendStatus newStatus, String newDetail) {
        return new AppendResult(newStatus, physicalOffset, size, queueOffset, storeTimestamp, storeHost, newDetail);
    }

    /** True when the entry is in the commit log (also for {@link AppendStatus#FLUSH_DISK_TIMEOUT}). */
    public boolean isStored() {
        return status == AppendStatus.PUT_OK || status == AppendStatus.FLUSH_DISK_TIMEOUT;
    }

    /** The 32 (IPv4) or 56 (IPv6) hex character offset message id; only for stored entries. */
    public String offsetMessageId() {
        if (!isStored()) {
            throw new IllegalStateException("no offset message id for a rejected append: " + status);
        }
        return OffsetMessageId.encode(storeHost, physicalOffset);
    }

    /** Commit-log offset just past this entry. */
    public long nextPhysicalOffset() {
        return physicalOffset + size;
    }
}
