package dev.ferry.server.cli;

import dev.ferry.format.DaemonThreads;
import dev.ferry.server.FerryServer;
import dev.ferry.server.FerryServerConfig;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;

/**
 * Runs a {@link FerryServer} until SIGTERM, then stops it cleanly (flushes, persists offsets, unregisters), printing
 * a ready line once it serves and a stopped line at the end, which scripts and tests wait for.
 */
final class ServerRun {
    private ServerRun() {
    }

    /** @param readyLine what the ready line says about the running server, before the start-up time */
    static int untilStopped(FerryServerConfig config, String threadPrefix, Function<FerryServer, String> readyLine)
            throws InterruptedException {
        long started = System.nanoTime();
        FerryServer server = new FerryServer(config, Clock.systemUTC(), new DaemonThreads(threadPrefix,
                // Netty reads its thread-locals (the pooled buffers' caches among them) faster on its own threads
                FastThreadLocalThread::new))
                .start();
        PrintWriter out = new PrintWriter(System.out, true);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
                out.println("Ferry server stopped cleanly");
            } catch (RuntimeException e) {
                out.println("Ferry server stopped with an error: " + e);
                e.printStackTrace(out);
            }
            stopped.countDown();
        }, "ferry-shutdown"));
        server.plugins().ifPresent(plugins -> out.println(plugins.describe()));
        out.printf("%s (%d ms)%n", readyLine.apply(server), (System.nanoTime() - started) / 1_000_000);
        stopped.await();
        return 0;
    }
}
