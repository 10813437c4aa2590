package dev.ferry.bench.store;

import dev.ferry.store.AppendResult;
import dev.ferry.store.FlushMode;
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
 * Sync-flush appends of 1 KiB messages from 16 writers, in messages per second: every append returns only after its
 * bytes are forced, and the group commit shares one force among the waiting appends. Compare with
 * {@link FsyncPerMessageBaselineBenchmark} from the same run. One store serves the whole trial, as a running broker
 * does: segments roll, and each next one is made ahead of time while the current one fills.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class GroupCommitBenchmark {
    private BenchmarkStore benchmarkStore;
    private MessageToStore message;

    @Setup(Level.Trial)
    public void open() {
        benchmarkStore = new BenchmarkStore("ferry-bench-sync", FlushMode.SYNC_FLUSH);
        message = BenchmarkMessages.oneKibMessage(0);
    }

    @TearDown(Level.Trial)
    public void close() {
        benchmarkStore.close();
    }

    @Benchmark
    @Threads(16)
    public AppendResult syncAppend16Writers() {
        return benchmarkStore.store().append(message);
    }
}
