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
 * Async-flush append throughput of 1 KiB messages with 1 and 4 writers, in messages per second (x 1 KiB = payload
 * MB/s). Compare with {@link SequentialWriteBaselineBenchmark} from the same run. A fresh store per iteration, in a
 * temporary directory deleted after it, keeps the disk footprint to one iteration's data.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class StoreAppendBenchmark {
    private BenchmarkStore benchmarkStore;
    private MessageToStore message;

    @Setup(Level.Iteration)
    public void open() {
        benchmarkStore = new BenchmarkStore("ferry-bench-append", FlushMode.ASYNC_FLUSH);
        message = BenchmarkMessages.oneKibMessage(0);
    }

    @TearDown(Level.Iteration)
    public void close() {
        benchmarkStore.close();
    }

    @Benchmark
    @Threads(1)
    public AppendResult asyncAppend1Writer() {
        return benchmarkStore.store().append(message);
    }

    @Benchmark
    @Threads(4)
    public AppendResult asyncAppend4Writers() {
        return benchmarkStore.store().append(message);
    }
}
