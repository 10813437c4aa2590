package dev.ferry.bench.server;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * The machine's own floor under an end-to-end latency: round trips of {@code size} bytes over a loopback TCP
 * connection at the latency run's rate, beside it, through nothing but blocking sockets (two thread wake-ups a round
 * trip, where a message through a broker takes five or six). On a quiet machine its p99 is a few hundred
 * microseconds; when the host is busy, wake-ups of 3 ms and more show up here as they do in the brokers' figures, so
 * the two read together say how much of a tail is the broker's.
 */
final class LoopbackEcho implements AutoCloseable {
    private final ServerSocket server;
    private final Socket client;
    private final Thread echo;
    private final Thread sender;
    private final Thread reader;
    private final Histogram histogram = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
    private final long recordFrom;
    private final long recordUntil;
    private volatile boolean running = true;

    private LoopbackEcho(int perSecond, int size, Duration delay, Duration duration) throws IOException {
        server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
        client.setTcpNoDelay(true);
        Socket served = server.accept();
        served.setTcpNoDelay(true);
        long start = System.nanoTime();
        recordFrom = start + delay.toNanos();
        recordUntil = recordFrom + duration.toNanos();
        int frame = Math.max(size, Long.BYTES);
        echo = daemon("loopback-echo", () -> {
            try (Socket socket = served) {
                DataInputStream in = new DataInputStream(socket.getInputStream());
                OutputStream out = socket.getOutputStream();
                byte[] bytes = new byte[frame];
                while (running) {
                    in.readFully(bytes);
                    out.write(bytes);
                }
            }
        });
        sender = daemon("loopback-echo-sender", () -> {
            OutputStream out = client.getOutputStream();
            byte[] bytes = new byte[frame];
            long interval = TimeUnit.SECONDS.toNanos(1) / perSecond;
            long next = start;
            while (running) {
                ClientLoad.parkUntil(next);
                ByteBuffer.wrap(bytes).putLong(System.nanoTime());
                out.write(bytes);
                next += interval;
            }
        });
        reader = daemon("loopback-echo-reader", () -> {
            InputStream in = client.getInputStream();
            DataInputStream data = new DataInputStream(in);
            byte[] bytes = new byte[frame];
            while (running) {
                data.readFully(bytes);
                long now = System.nanoTime();
                long sent = ByteBuffer.wrap(bytes).getLong();
                if (sent - recordFrom >= 0 && recordUntil - sent > 0) {
                    synchronized (histogram) {
                        histogram.recordValue(Math.max(0, (now - sent) / 1000));
                    }
                }
            }
        });
    }

    /**
     * Starts round trips now and records those sent from {@code delay} on for {@code duration}: the window of the
     * latency run it stands beside.
     */
    static LoopbackEcho start(int perSecond, int size, Duration delay, Duration duration) throws IOException {
        return new LoopbackEcho(perSecond, size, delay, duration);
    }

    /** What was recorded so far; call it once the window is over. */
    Histogram histogram() {
        synchronized (histogram) {
            return histogram.copy();
        }
    }

    @Override
    public void close() throws IOException {
        running = false;
        client.close(); // ends the reader's and the echo's blocking reads
        server.close();
        try {
            sender.join(1000);
            reader.join(1000);
            echo.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the threads end with their sockets anyway
        }
    }

    /** A task that stops at its socket's close. */
    private interface SocketWork {
        void run() throws IOException;
    }

    private Thread daemon(String name, SocketWork work) {
        Thread thread = new Thread(() -> {
            try {
                work.run();
            } catch (IOException e) {
                if (running) {
                    System.err.println("  " + name + " failed: " + e);
                }
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }
}
