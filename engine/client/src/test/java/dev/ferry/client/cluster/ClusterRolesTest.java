package dev.ferry.client.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import org.apache.rocketmq.remoting.protocol.body.ClusterInfo;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ferry-server namesrv} and {@code ferry-server broker} as separate processes: every broker registers with
 * every name server, again and again, so a name server that restarts empty learns them all back, and a broker that
 * stops leaves every name server at once. What the name servers say is read with Apache's admin client, as
 * {@code mqadmin clusterList} reads it.
 */
@Tag("integration")
class ClusterRolesTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void shouldRegisterEveryBrokerWithEveryNameServerAndAgainWithOneThatRestarts() throws Exception {
        try (ClusterNode ns1 = ClusterNode.nameServer(dir, "ns1");
             ClusterNode ns2 = ClusterNode.nameServer(dir, "ns2")) {
            String nameServers = ns1.address() + ";" + ns2.address();
            try (ClusterNode a = ClusterNode.broker(dir, "broker-a", "RolesCluster", nameServers);
                 ClusterNode b = ClusterNode.broker(dir, "broker-b", "RolesCluster", nameServers);
                 ClusterNode c = ClusterNode.broker(dir, "broker-c", "RolesCluster", nameServers);
                 Admin admin1 = new Admin(ns1.address()); Admin admin2 = new Admin(ns2.address())) {
                Set<String> all = Set.of("broker-a", "broker-b", "broker-c");
                for (Admin admin : new Admin[] {admin1, admin2}) {
                    await().atMost(WAIT).untilAsserted(() -> {
                        ClusterInfo info = admin.clusterInfo();
                        assertThat(info.getClusterAddrTable()).containsOnlyKeys("RolesCluster");
                        assertThat(info.getClusterAddrTable().get("RolesCluster")).isEqualTo(all);
                        assertThat(info.getBrokerAddrTable().get("broker-b").getBrokerAddrs())
                                .as("broker-b's master, at its own port").containsEntry(0L, b.address());
                    });
                }

                ns2.kill();
                ns2.start(); // empty: a name server keeps nothing on disk about brokers
                await().atMost(WAIT).untilAsserted(() -> assertThat(admin2.brokerNames()).isEqualTo(all));

                c.stop(); // unregisters from both
                for (Admin admin : new Admin[] {admin1, admin2}) {
                    await().atMost(WAIT).untilAsserted(() ->
                            assertThat(admin.brokerNames()).containsExactlyInAnyOrder("broker-a", "broker-b"));
                }
                assertThat(a.address()).isNotEqualTo(b.address());
            }
        }
    }

    /** Apache's admin client of one name server. */
    static final class Admin implements AutoCloseable {
        private final DefaultMQAdminExt admin = new DefaultMQAdminExt();

        Admin(String nameServer) throws Exception {
            admin.setNamesrvAddr(nameServer);
            admin.setInstanceName("roles-" + nameServer.replace(':', '-') + "-" + System.nanoTime());
            admin.start();
        }

        ClusterInfo clusterInfo() throws Exception {
            return admin.examineBrokerClusterInfo();
        }

        Set<String> brokerNames() throws Exception {
            return new TreeSet<>(clusterInfo().getBrokerAddrTable().keySet());
        }

        DefaultMQAdminExt apache() {
            return admin;
        }

        @Override
        public void close() {
            admin.shutdown();
        }
    }
}
