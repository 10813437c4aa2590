package dev.ferry.server.cli;

import dev.ferry.format.Clock;
import dev.ferry.format.DaemonThreads;
import dev.ferry.server.FerryServer;
import dev.ferry.server.FerryServerConfig;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import picocli.CommandLine;

/**
 * Runs a {@link FerryServer} until SIGTERM, then stops it cleanly (flushes, persists offsets, unregisters), printing
 * a ready line once it serves and a stopped line at the end, which scripts and tests wait for. A server that cannot
 * start ends the command with {@link #FAILED} and one line on stderr naming what to fix ({@link StartupFailure}).
 */
final class ServerRun {
    /** The exit code of a start-up failure: picocli's for bad usage, as a bad config value is. */
    static final int FAILED = 2;

    private ServerRun() {
    }

    /** {@code ferry-server --verbose broker ...}: the flag lands on the top command, and means the same. */
    private static boolean verboseBeforeTheSubcommand(CommandLine.Model.CommandSpec spec) {
        return spec.root().userObject() instanceof FerryServerCommand top && top.options.verbose;
    }

    /**
     * @param spec      the command's, whose err stream the failure line goes to
     * @param options   the command's server options (--verbose among them)
     * @param config    reads the config; a bad key or value, or an unreadable file, fails the start
     * @param readyLine what the ready line says about the running server, before the start-up time
     */
    static int untilStopped(CommandLine.Model.CommandSpec spec, ServerOptions options,
                            Callable<FerryServerConfig> config, String threadPrefix,
                            Function<FerryServer, String> readyLine) throws InterruptedException {
        Clock clock = Clock.system();
        long started = clock.nanos();
        FerryServer server;
        try {
            server = new FerryServer(config.call(), clock, new DaemonThreads(threadPrefix,
                    // Netty reads its thread-locals (the pooled buffers' caches among them) faster on its own threads
                    FastThreadLocalThread::new))
                    .start();
        } catch (Exception e) {
            PrintWriter err = spec.commandLine().getErr();
            err.println(StartupFailure.line(e));
            if (options.verbose || verboseBeforeTheSubcommand(spec)) {
                e.printStackTrace(err);
            }
            err.flush();
            return FAILED;
        }
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
        out.printf("%s (%d ms)%n", readyLine.apply(server), (clock.nanos() - started) / 1_000_000);
        stopped.await();
        return 0;
    }
}
