package dev.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.Clock;
import dev.ferry.format.DaemonThreads;
import dev.ferry.remoting.RemotingClientConfig;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.endpoint.RemotingClient;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A thread dump of a running server tells its threads apart: each is named for what it does; and the broker's port
 * has the event loops it is configured with.
 */
@Tag("integration")
class ThreadNamesOfServerTest {
    @TempDir
    Path dir;

    @Test
    void everyThreadOfAServerIsNamedForItsRole() {
        List<String> names = new CopyOnWriteArrayList<>();
        ThreadFactory recording = recordingNames(names);
        FerryServerConfig config = FerryServerConfig.builder(dir).namesrvPort(0).brokerPort(0)
                .commitLogSegmentSize(1 << 20).build();

        FerryServer server = new FerryServer(config, Clock.system(), recording).start();
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

    @Test
    void shouldServeTheBrokersConnectionsOnTheConfiguredEventLoops() {
        assertThat(eventLoopsServing(3, 1)).isEqualTo(1);
        assertThat(eventLoopsServing(3, 3)).isEqualTo(3);
    }

    /**
     * The broker's remoting threads started by {@code connections} connections each answered once: its event loops
     * start with their first connection, its acceptor and housekeeper before.
     */
    private long eventLoopsServing(int connections, int ioThreads) {
        List<String> names = new CopyOnWriteArrayList<>();
        ThreadFactory recording = recordingNames(names);
        FerryServerConfig config = FerryServerConfig.builder(dir.resolve("io" + ioThreads)).namesrvPort(0)
                .brokerPort(0).commitLogSegmentSize(1 << 20).broker(b -> b.ioThreads(ioThreads)).build();
        List<RemotingClient> clients = new ArrayList<>();
        try (FerryServer server = new FerryServer(config, Clock.system(), recording).start()) {
            String broker = "127.0.0.1:" + server.brokerPort();
            long before = remotingThreads(names);
            for (int i = 0; i < connections; i++) { // each client its own connection, answered before the next
                RemotingClient client = new RemotingClient(RemotingClientConfig.builder().build());
                clients.add(client);
                RemotingCommand answer = client.invokeSync(broker,
                        RemotingCommand.request(RequestCode.GET_BROKER_RUNTIME_INFO).build(), Duration.ofSeconds(10));
                assertThat(answer.code()).isEqualTo(ResponseCode.SUCCESS);
            }
            return remotingThreads(names) - before;
        } finally {
            clients.forEach(RemotingClient::close);
        }
    }

    /** Daemon threads whose names go to {@code names} as they are made. */
    private static ThreadFactory recordingNames(List<String> names) {
        ThreadFactory daemons = new DaemonThreads("unnamed");
        return task -> {
            Thread thread = daemons.newThread(task);
            names.add(thread.getName());
            return thread;
        };
    }

    private static long remotingThreads(List<String> names) {
        return names.stream().filter(name -> name.startsWith("ferry-broker-remoting-")).count();
    }
}
