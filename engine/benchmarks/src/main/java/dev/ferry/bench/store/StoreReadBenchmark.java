package dev.ferry.bench.store;

import dev.ferry.store.FlushMode;
import dev.ferry.store.GetMessageResult;
import dev.ferry.store.GetMessageStatus;
import dev.ferry.store.MessageFilterPredicate;
import dev.ferry.store.MessageStore;
import dev.ferry.store.MessageToStore;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * Reads of a cached backlog: 100,000 messages of 1 KiB in one queue (about 110 MB, in the page cache), pulled 32 at a
 * time from offsets that cycle through the backlog. One operation = one pull of 32 messages.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class StoreReadBenchmark {
    static final int BACKLOG = 100_000;
    static final int BATCH = 32;

    private BenchmarkStore backlog;
    private MessageStore store;
    private long nextOffset;

    @Setup(Level.Trial)
    public void fill() {
        backlog = new BenchmarkStore("ferry-bench-read", FlushMode.ASYNC_FLUSH);
        store = backlog.store();
        MessageToStore message = BenchmarkMessages.oneKibMessage(0);
        for (int i = 0; i < BACKLOG; i++) {
            store.append(message);
        }
        while (store.nextOffset("BenchTopic", 0) < BACKLOG) {
            Thread.onSpinWait();
        }
    }

    @TearDown(Level.Trial)
    public void close() {
        backlog.close();
    }

    @Benchmark
    @Threads(1)
    public GetMessageResult read32() {
        long offset = nextOffset;
        nextOffset = offset + BATCH >= BACKLOG ? 0 : offset + BATCH;
        GetMessageResult result = store.getMessages("BenchTopic", 0, offset, BATCH, 1 << 20,
            MessageFilterPredicate.ALL);
        if (result.status() != GetMessageStatus.FOUND) {
            throw new IllegalStateException("read " + result.status() + " at " + offset);
        }
        return result;
    }
}
