package dev.ferry.server.apache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.Clock;
import dev.ferry.server.FerryServer;
import dev.ferry.server.FerryServerConfig;
import dev.ferry.server.cli.FerryServerCommand;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker holds its store directory while its process runs, and the operating system lets go of it when the process
 * ends, killed or not: a second ferry-server on the same directory is refused in one line, and starts once the first
 * is gone.
 */
@Tag("integration")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StoreDirectoryLockTest {
    @TempDir
    Path dir;

    @Test
    void shouldRefuseAServerOnTheStoreOfARunningProcessAndServeItOnceThatProcessIsKilled() throws Exception {
        Path store = dir.resolve("store");
        int[] ports = FerryServerProcess.freePorts(2);
        try (FerryServerProcess first = FerryServerProcess.start(store, ports[0], ports[1])) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int exit = FerryServerCommand.commandLine().setOut(new PrintWriter(out))
                    .setErr(new PrintWriter(err))
                    .execute("--store-dir", store.toString(), "--namesrv-port", "0", "--broker-port", "0");
            assertThat(exit).isEqualTo(2);
            assertThat(err.toString().lines().toList()).containsExactly("storeDir: " + store.toAbsolutePath()
                    + " is in use by another running broker; stop it or give this one its own store directory "
                    + "(--store-dir)");
            assertThat(out.toString()).isEmpty();
            first.kill();
        }
        try (FerryServer second = new FerryServer(FerryServerConfig.builder(store).namesrvPort(0).brokerPort(0)
                .build(), Clock.system(), new DefaultThreadFactory("second", true)).start()) {
            assertThat(second.brokerPort()).isPositive();
        }
    }
}
