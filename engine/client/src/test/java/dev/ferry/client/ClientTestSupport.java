package dev.ferry.client;

import dev.ferry.client.peer.ClusterUnderTest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/** Shared helpers of the client's tests against a {@link ClusterUnderTest}. */
final class ClientTestSupport {
    private static final AtomicInteger NAMES = new AtomicInteger();

    private ClientTestSupport() {
    }

    /** A topic or group name no other test uses. */
    static String unique(String prefix) {
        return prefix + "_" + Long.toString(System.nanoTime() % 1_000_000_000L, 36) + "_" + NAMES.incrementAndGet();
    }

    /** A started Apache admin client (what mqadmin runs) of {@code cluster}; shut it down after use. */
    static org.apache.rocketmq.tools.admin.DefaultMQAdminExt admin(ClusterUnderTest cluster) throws Exception {
        org.apache.rocketmq.tools.admin.DefaultMQAdminExt admin =
                new org.apache.rocketmq.tools.admin.DefaultMQAdminExt();
        admin.setNamesrvAddr(cluster.nameServerAddress());
        admin.setInstanceName(unique("admin"));
        admin.start();
        return admin;
    }

    /** A client of {@code cluster} that reports 127.0.0.1 and keeps local offsets under {@code directory}. */
    static FerryClient client(ClusterUnderTest cluster, Path directory) {
        return new FerryClient(ClientConfig.builder(cluster.nameServerAddress())
                .clientIp("127.0.0.1")
                .localOffsetDirectory(directory)
                .offsetPersistInterval(Duration.ofSeconds(1))
                .build());
    }
}
