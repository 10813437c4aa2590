package dev.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.DaemonThreads;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A thread dump of a running server tells its threads apart: each is named for what it does. */
class ThreadNamesOfServerTest {
    @TempDir
    Path dir;

    @Test
    void everyThreadOfAServerIsNamedForItsRole() {
        List<String> names = new CopyOnWriteArrayList<>();
        ThreadFactory daemons = new DaemonThreads("unnamed");
        ThreadFactory recording = task -> {
            Thread thread = daemons.newThread(task);
            names.add(thread.getName());
            return thread;
        };
        FerryServerConfig config = FerryServerConfig.builder(dir).namesrvPort(0).brokerPort(0)
                .commitLogSegmentSize(1 << 20).build();

        FerryServer server = new FerryServer(config, Clock.systemUTC(), recording).start();
        try {
            // the request pools start their threads with their first request; these run from the start
            assertThat(names).contains("ferry-store-dispatch-1", "ferry-store-flush-1", "ferry-broker-schedule-1",
                    "ferry-broker-register-1", "ferry-namesrv-register-1", "ferry-namesrv-expiry-1");
            assertThat(names).anyMatch(name -> name.startsWith("ferry-broker-remoting-"))
                    .anyMatch(name -> name.startsWith("ferry-namesrv-remoting-"));
            assertThat(names).noneMatch(name -> name.startsWith("unnamed-"));
        } finally {
            server.close();
        }
    }
}
