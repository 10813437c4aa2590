package dev.ferry.ra.inbound;

import dev.ferry.api.MessageQueue;
import dev.ferry.spi.OffsetStore;
import dev.ferry.spi.OffsetStoreContext;
import dev.ferry.spi.OffsetStoreProvider;
import dev.ferry.spi.PluginConfig;
import dev.ferry.spi.ReadOffsetType;
import dev.ferry.spi.TransactionalOffsetStore;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * {@code test-claims}: a transactional offset store that keeps its claims in memory, shared by every store it makes,
 * for the adapter's tests: offsets listed in {@link #CONSUMED} count as consumed before, a claim of an offset in
 * {@link #FAILING} throws once.
 */
public final class ClaimingOffsetStoreProvider implements OffsetStoreProvider {
    /** Offsets (of any queue) a committed transaction consumed already. */
    static final Set<Long> CONSUMED = ConcurrentHashMap.newKeySet();
    /** Offsets whose next claim fails. */
    static final Set<Long> FAILING = ConcurrentHashMap.newKeySet();
    /** Every claim, in order, as "offset:result". */
    static final List<String> CLAIMS = new CopyOnWriteArrayList<>();

    @Override
    public String name() {
        return "test-claims";
    }

    @Override
    public OffsetStore create(OffsetStoreContext context, PluginConfig config) {
        return new TransactionalOffsetStore() {
            private final Map<MessageQueue, Long> table = new ConcurrentHashMap<>();

            @Override
            public boolean claim(MessageQueue queue, long offset) {
                if (FAILING.remove(offset)) {
                    CLAIMS.add(offset + ":failed");
                    throw new IllegalStateException("the database refused the claim of " + offset);
                }
                boolean fresh = CONSUMED.add(offset);
                CLAIMS.add(offset + ":" + (fresh ? "claimed" : "skipped"));
                return fresh;
            }

            @Override
            public void load() {
            }

            @Override
            public void update(MessageQueue queue, long nextOffset, boolean increaseOnly) {
                table.merge(queue, nextOffset, (a, b) -> increaseOnly ? Math.max(a, b) : b);
            }

            @Override
            public long read(MessageQueue queue, ReadOffsetType type) {
                return table.getOrDefault(queue, NO_OFFSET);
            }

            @Override
            public void persist(MessageQueue queue) {
            }

            @Override
            public void persistAll(Set<MessageQueue> assigned) {
            }

            @Override
            public void remove(MessageQueue queue) {
                table.remove(queue);
            }

            @Override
            public Map<MessageQueue, Long> offsets(String topic) {
                return Map.copyOf(table);
            }
        };
    }
}
