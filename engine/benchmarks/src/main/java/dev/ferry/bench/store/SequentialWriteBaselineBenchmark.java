package dev.ferry.bench.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
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
 * The disk's sequential write bandwidth as this JVM sees it, in 1 KiB chunks per second: into memory-mapped files of
 * the store's segment size, and appended through a FileChannel. Both are forced every 500 ms by a background thread,
 * as the async-flush commit log is, so that all three run under the same page-cache writeback regime; there is no
 * message logic at all.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class SequentialWriteBaselineBenchmark {
    static final int SEGMENT_SIZE = 128 * 1024 * 1024;
    static final int CHUNK = 1024;

    private BenchmarkDirectory directory;
    private final byte[] chunk = new byte[CHUNK];
    private final ByteBuffer chunkBuffer = ByteBuffer.allocateDirect(CHUNK);
    private final Queue<MappedByteBuffer> filledMappings = new ConcurrentLinkedQueue<>();
    private volatile MappedByteBuffer mapped;
    private ScheduledExecutorService flusher;
    private int mappedPosition;
    private long mappedFiles;
    private FileChannel channel;

    @Setup(Level.Iteration)
    public void open() throws IOException {
        directory = new BenchmarkDirectory("ferry-bench-baseline");
        Arrays.fill(chunk, (byte) 'f');
        chunkBuffer.clear();
        chunkBuffer.put(chunk).flip();
        mappedFiles = 0;
        mapNext();
        flusher = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "baseline-flush");
            thread.setDaemon(true);
            return thread;
        });
        channel = FileChannel.open(directory.path().resolve("channel.log"), StandardOpenOption.CREATE,
            StandardOpenOption.WRITE);
        flusher.scheduleWithFixedDelay(this::forceAll, 500, 500, TimeUnit.MILLISECONDS);
    }

    private void forceAll() {
        for (MappedByteBuffer filled = filledMappings.poll(); filled != null; filled = filledMappings.poll()) {
            filled.force();
        }
        mapped.force();
        try {
            channel.force(false);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void mapNext() throws IOException {
        if (mapped != null) {
            filledMappings.add(mapped);
        }
        Path file = directory.path().resolve(String.format("%020d", mappedFiles++ * SEGMENT_SIZE));
        try (FileChannel c = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
            StandardOpenOption.WRITE)) {
            c.write(ByteBuffer.allocate(1), SEGMENT_SIZE - 1);
            mapped = c.map(FileChannel.MapMode.READ_WRITE, 0, SEGMENT_SIZE);
        }
        mappedPosition = 0;
    }

    @TearDown(Level.Iteration)
    public void close() throws IOException, InterruptedException {
        flusher.shutdown();
        flusher.awaitTermination(10, TimeUnit.SECONDS);
        channel.close();
        filledMappings.clear();
        mapped = null;
        directory.close();
    }

    @Benchmark
    @Threads(1)
    public int mappedSequentialWrite() throws IOException {
        if (mappedPosition + CHUNK > SEGMENT_SIZE) {
            mapNext();
        }
        mapped.put(mappedPosition, chunk);
        mappedPosition += CHUNK;
        return mappedPosition;
    }

    @Benchmark
    @Threads(1)
    public int channelSequentialWrite() throws IOException {
        chunkBuffer.rewind();
        return channel.write(chunkBuffer);
    }
}
