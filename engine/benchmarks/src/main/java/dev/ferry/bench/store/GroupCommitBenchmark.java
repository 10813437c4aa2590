package dev.ferry.bench.store;

import dev.ferry.store.AppendResult;
import dev.ferry.store.AppendStatus;
import dev.ferry.store.FlushMode;
import dev.ferry.store.MessageToStore;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * Sync-flush appends of 1 KiB messages from 16 writers, in messages per second: every append counts only once its
 * bytes are forced, and the group commit shares one force among the waiting appends. Compare with
 * {@link FsyncPerMessageBaselineBenchmark} from the same run. One store serves the whole trial, as a running broker
 * does: segments roll, and each next one is made ahead of time while the current one fills.
 *
 * <p>Two shapes of writer. {@code syncAppend16Writers}: 16 threads, each parked in {@code append} until its message is
 * durable. {@code syncAppendAsync16Writers}: 16 writers that each append their next message once the previous one is
 * durable, their appends made by one send thread through {@code appendAsync}, as the broker serves 16 producers that
 * each wait for a send's answer before the next: no thread parks per message.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class GroupCommitBenchmark {
    private static final int WRITERS = 16;
    private static final int MESSAGES_PER_WRITER = 128;

    private BenchmarkStore benchmarkStore;
    private MessageToStore message;
    private ExecutorService sendThread;

    @Setup(Level.Trial)
    public void open() {
        benchmarkStore = new BenchmarkStore("ferry-bench-sync", FlushMode.SYNC_FLUSH);
        message = BenchmarkMessages.oneKibMessage(0);
        sendThread = Executors.newSingleThreadExecutor(r -> new Thread(r, "bench-send"));
    }

    @TearDown(Level.Trial)
    public void close() {
        sendThread.shutdownNow();
        benchmarkStore.close();
    }

    @Benchmark
    @Threads(WRITERS)
    public AppendResult syncAppend16Writers() {
        return benchmarkStore.store().append(message);
    }

    @Benchmark
    @Threads(1)
    @OperationsPerInvocation(WRITERS * MESSAGES_PER_WRITER)
    public void syncAppendAsync16Writers() throws InterruptedException {
        CountDownLatch finished = new CountDownLatch(WRITERS);
        AtomicReference<AppendResult> failed = new AtomicReference<>();
        for (int w = 0; w < WRITERS; w++) {
            sendThread.execute(() -> appendInTurn(MESSAGES_PER_WRITER, finished, failed));
        }
        finished.await();
        if (failed.get() != null) {
            throw new IllegalStateException("append failed: " + failed.get());
        }
    }

    /** One writer's next append; once it is durable, the send thread makes the one after. */
    private void appendInTurn(int left, CountDownLatch finished, AtomicReference<AppendResult> failed) {
        benchmarkStore.store().appendAsync(message).whenComplete((result, error) -> {
            if (error != null || result.status() != AppendStatus.PUT_OK) {
                failed.compareAndSet(null, result);
                finished.countDown();
            } else if (left == 1) {
                finished.countDown();
            } else {
                sendThread.execute(() -> appendInTurn(left - 1, finished, failed));
            }
        });
    }
}
