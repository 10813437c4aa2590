package dev.ferry.bench.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
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
 * The naive durable log: write 1 KiB and force, once per message, in messages per second. What group commit is
 * measured against.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class FsyncPerMessageBaselineBenchmark {
    private BenchmarkDirectory directory;
    private FileChannel channel;
    private final ByteBuffer chunk = ByteBuffer.allocateDirect(BenchmarkMessages.BODY_SIZE);

    @Setup(Level.Iteration)
    public void open() throws IOException {
        directory = new BenchmarkDirectory("ferry-bench-fsync");
        channel = FileChannel.open(directory.path().resolve("fsync.log"), StandardOpenOption.CREATE,
            StandardOpenOption.WRITE);
        byte[] bytes = new byte[BenchmarkMessages.BODY_SIZE];
        Arrays.fill(bytes, (byte) 'f');
        chunk.clear();
        chunk.put(bytes).flip();
    }

    @TearDown(Level.Iteration)
    public void close() throws IOException {
        channel.close();
        directory.close();
    }

    @Benchmark
    @Threads(1)
    public int fsyncPerMessage() throws IOException {
        chunk.rewind();
        int written = channel.write(chunk);
        channel.force(false);
        return written;
    }
}
