package dev.ferry.server.apache;

import dev.ferry.format.Clock;
import dev.ferry.server.FerryServer;
import dev.ferry.server.FerryServerConfig;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.nio.file.Path;

/** A ferry-server on free ports with small commit-log files, for tests in this JVM. */
final class FerryServerFixture implements AutoCloseable {
    private final FerryServer server;

    FerryServerFixture(Path storeDir) {
        this(small(storeDir).build());
    }

    /** Free ports and 8 MiB commit-log files. */
    static FerryServerConfig.Builder small(Path storeDir) {
        return FerryServerConfig.builder(storeDir).namesrvPort(0).brokerPort(0).commitLogSegmentSize(8 * 1024 * 1024);
    }

    FerryServerFixture(FerryServerConfig config) {
        this.server = new FerryServer(config, Clock.system(), new DefaultThreadFactory("ferry-test", true)).start();
    }

    String nameServer() {
        return server.nameServerAddress();
    }

    FerryServer server() {
        return server;
    }

    @Override
    public void close() {
        server.close();
    }
}
