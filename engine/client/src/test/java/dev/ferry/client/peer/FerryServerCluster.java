package dev.ferry.client.peer;

import dev.ferry.format.Clock;
import dev.ferry.server.FerryServer;
import dev.ferry.server.FerryServerConfig;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/** A ferry-server in this JVM on free ports, with small commit-log files, as the cluster under test. */
public final class FerryServerCluster implements ClusterUnderTest, AutoCloseable {
    private final FerryServer server;
    private final Path directory;

    private FerryServerCluster(FerryServer server, Path directory) {
        this.server = server;
        this.directory = directory;
    }

    public static FerryServerCluster start() {
        return start(settings -> { });
    }

    /** As {@link #start()}, with {@code settings} applied to the server's config on top. */
    public static FerryServerCluster start(Consumer<FerryServerConfig.Builder> settings) {
        Path directory;
        try {
            directory = Files.createTempDirectory("ferry-client-server");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            FerryServerConfig.Builder builder = FerryServerConfig.builder(directory).namesrvPort(0).brokerPort(0)
                    .commitLogSegmentSize(16 * 1024 * 1024);
            settings.accept(builder);
            FerryServerConfig config = builder.build();
            return new FerryServerCluster(new FerryServer(config, Clock.system(),
                    new DefaultThreadFactory("ferry-server-under-test", true)).start(), directory);
        } catch (RuntimeException e) {
            TemporaryDirectory.deleteQuietly(directory);
            throw e;
        }
    }

    @Override
    public String nameServerAddress() {
        return server.nameServerAddress();
    }

    @Override
    public void close() {
        server.close();
        TemporaryDirectory.deleteQuietly(directory);
    }

    @Override
    public String toString() {
        return "ferry-server at " + nameServerAddress();
    }
}
