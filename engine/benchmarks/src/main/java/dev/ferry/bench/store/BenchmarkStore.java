package dev.ferry.bench.store;

import dev.ferry.store.FlushMode;
import dev.ferry.store.MessageStore;
import dev.ferry.store.StoreConfig;

/** A message store with 128 MiB segments in its own temporary directory; closing it deletes everything. */
final class BenchmarkStore implements AutoCloseable {
    private final BenchmarkDirectory directory;
    private final MessageStore store;

    BenchmarkStore(String prefix, FlushMode flushMode) {
        directory = new BenchmarkDirectory(prefix);
        store = MessageStore.builder(StoreConfig.builder(directory.path())
            .commitLogSegmentSize(SequentialWriteBaselineBenchmark.SEGMENT_SIZE)
            .flushMode(flushMode)
            .build()).open();
    }

    MessageStore store() {
        return store;
    }

    @Override
    public void close() {
        store.close();
        directory.close();
    }
}
