package dev.ferry.bench.faults;

import dev.ferry.client.cluster.ApacheNodeMain;
import dev.ferry.format.ChildProcess;
import dev.ferry.format.FixedPorts;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;

/**
 * The cluster of a fault run, every node a JVM of its own on loopback: two name servers; broker group {@code broker-a}
 * of a SYNC_MASTER ({@code a-master}) and its slave ({@code a-slave}); a second group, {@code broker-b}, an
 * ASYNC_MASTER alone ({@code b-master}); all writing with SYNC_FLUSH. Ferry's nodes and Apache RocketMQ 5.3.3's read
 * the same broker.conf.
 *
 * <p>Every link goes through a {@link LinkProxy}: a broker listens on 127.0.0.2 ({@code bindAddress}) and advertises
 * 127.0.0.1 ({@code brokerIP1}), where its proxy listens on the same port, so clients (and a slave copying its
 * master's tables) reach it only through the proxy; the slave replicates through a proxy of the master's HA port
 * ({@code haMasterAddress}); brokers and clients reach each name server through a proxy of their own, so that either
 * side's link can be cut alone.
 */
final class FaultCluster implements AutoCloseable {
    /** Whose brokers and name servers run. */
    enum Kind { FERRY, APACHE }

    static final String CLUSTER = "FaultCluster";
    /** The nodes, in start order. */
    static final List<String> NODES = List.of("ns-0", "ns-1", "a-master", "a-slave", "b-master");
    static final List<String> BROKERS = List.of("a-master", "a-slave", "b-master");
    private static final String FERRY_MAIN = "dev.ferry.server.cli.FerryServerCommand";

    private final Kind kind;
    private final Map<String, ChildProcess> nodes = new LinkedHashMap<>();
    private final Map<String, LinkProxy> links = new LinkedHashMap<>();
    private final List<String> clientNameServers = new ArrayList<>();

    private FaultCluster(Kind kind) {
        this.kind = kind;
    }

    /**
     * Starts the cluster under {@code dir} with {@code classPath}; {@code diskLimits} gives each broker's
     * diskSpaceWarningLevelRatio (percent), {@code inSyncReplicas} the SYNC_MASTER's (2: it acknowledges once its
     * slave has the message; 1: Apache 5's default, under which Apache's acknowledges without its slave),
     * {@code random} the ports.
     */
    static FaultCluster start(Kind kind, Path dir, String classPath, Map<String, Integer> diskLimits,
                              int inSyncReplicas, Random random) throws IOException, InterruptedException {
        FaultCluster cluster = new FaultCluster(kind);
        try {
            cluster.startAll(dir, classPath, diskLimits, inSyncReplicas, random);
        } catch (IOException | InterruptedException | RuntimeException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    private void startAll(Path dir, String classPath, Map<String, Integer> diskLimits, int inSyncReplicas,
                          Random random) throws IOException, InterruptedException {
        List<String> brokerNameServers = new ArrayList<>();
        for (String ns : List.of("ns-0", "ns-1")) {
            int port = freePort(random, false);
            Path home = dir.resolve(ns);
            Files.createDirectories(home);
            List<String> args = kind == Kind.FERRY
                    ? List.of("namesrv", "--port", Integer.toString(port), "--store-dir", home.toString())
                    : List.of("namesrv", home.toString(), Integer.toString(port));
            String main = kind == Kind.FERRY ? FERRY_MAIN : ApacheNodeMain.class.getName();
            ChildProcess node = new ChildProcess(ns, ChildProcess.java("192m", classPath, main, jvmOptions(home),
                    args), dir.resolve(ns + ".log"), " ready");
            node.start(90);
            nodes.put(ns, node);
            InetSocketAddress target = new InetSocketAddress("127.0.0.1", port);
            LinkProxy fromBrokers = LinkProxy.start("brokers-" + ns, loopback(freePort(random, false)), target);
            LinkProxy fromClients = LinkProxy.start("clients-" + ns, loopback(freePort(random, false)), target);
            links.put(fromBrokers.name(), fromBrokers);
            links.put(fromClients.name(), fromClients);
            brokerNameServers.add(fromBrokers.address());
            clientNameServers.add(fromClients.address());
        }
        int masterHaPort = 0;
        for (String broker : BROKERS) {
            int port = freePort(random, true);
            Map<String, String> conf = new LinkedHashMap<>();
            conf.put("brokerClusterName", CLUSTER);
            conf.put("brokerName", broker.startsWith("a-") ? "broker-a" : "broker-b");
            conf.put("brokerId", broker.equals("a-slave") ? "1" : "0");
            conf.put("brokerRole", switch (broker) {
                case "a-master" -> "SYNC_MASTER";
                case "a-slave" -> "SLAVE";
                default -> "ASYNC_MASTER";
            });
            conf.put("namesrvAddr", String.join(";", brokerNameServers));
            conf.put("brokerIP1", "127.0.0.1");
            conf.put("bindAddress", "127.0.0.2");
            conf.put("listenPort", Integer.toString(port));
            conf.put("haListenPort", Integer.toString(port + 1));
            conf.put("storePathRootDir", dir.resolve(broker).toString());
            conf.put("flushDiskType", "SYNC_FLUSH");
            // one segment holds a whole run: a full disk then has no old segment to delete early on either broker
            conf.put("mappedFileSizeCommitLog", Integer.toString(256 << 20));
            conf.put("registerNameServerPeriod", "10000");
            conf.put("transactionCheckInterval", "3000");
            conf.put("transactionTimeOut", "3000");
            conf.put("slaveReadEnable", "true");
            int limit = diskLimits.getOrDefault(broker, 90);
            conf.put("diskSpaceWarningLevelRatio", Integer.toString(limit));
            conf.put("diskMaxUsedSpaceRatio", Integer.toString(Math.min(95, limit)));
            conf.put("diskSpaceCleanForciblyRatio", Integer.toString(Math.min(85, limit)));
            conf.put("cleanResourceInterval", "1000");
            if (broker.equals("a-master")) {
                masterHaPort = port + 1;
                conf.put("inSyncReplicas", Integer.toString(inSyncReplicas));
            }
            if (broker.equals("a-slave")) {
                LinkProxy ha = LinkProxy.start("a-ha", loopback(freePort(random, false)),
                        new InetSocketAddress("127.0.0.2", masterHaPort));
                links.put(ha.name(), ha);
                conf.put("haMasterAddress", ha.address());
            }
            Path file = dir.resolve(broker + ".conf");
            Files.writeString(file, conf.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue() + "\n")
                    .collect(Collectors.joining()), StandardCharsets.UTF_8);
            List<String> args = kind == Kind.FERRY ? List.of("broker", "--config", file.toString())
                    : List.of(file.toString());
            String main = kind == Kind.FERRY ? FERRY_MAIN : ApacheFaultNode.class.getName();
            ChildProcess node = new ChildProcess(broker, ChildProcess.java("256m", classPath, main,
                    jvmOptions(dir.resolve(broker + "-home")), args), dir.resolve(broker + ".log"), " ready");
            // the proxy first: the broker's own connections to its advertised address go through it too
            LinkProxy proxy = LinkProxy.start(broker, loopback(port), new InetSocketAddress("127.0.0.2", port));
            links.put(broker, proxy);
            node.start(120);
            nodes.put(broker, node);
        }
    }

    private static List<String> jvmOptions(Path home) throws IOException {
        Files.createDirectories(home);
        // Apache keeps some files under the home directory; each node its own
        return List.of("-Duser.home=" + home, "-Drocketmq.home.dir=" + home);
    }

    private static InetSocketAddress loopback(int port) {
        return new InetSocketAddress("127.0.0.1", port);
    }

    /** A port free on 127.0.0.1 and 127.0.0.2, kept by a node killed and started again. */
    private static int freePort(Random random, boolean withNext) throws IOException {
        return FixedPorts.pick(random, withNext, List.of("127.0.0.1", "127.0.0.2"));
    }

    Kind kind() {
        return kind;
    }

    /** {@code host:port;host:port}: the name servers as clients reach them. */
    String clientNameServers() {
        return String.join(";", clientNameServers);
    }

    ChildProcess node(String name) {
        ChildProcess node = nodes.get(name);
        if (node == null) {
            throw new IllegalArgumentException("no node " + name);
        }
        return node;
    }

    LinkProxy link(String name) {
        LinkProxy link = links.get(name);
        if (link == null) {
            throw new IllegalArgumentException("no link " + name + " in " + links.keySet());
        }
        return link;
    }

    /** Every process of the cluster, stopped: for the brokers' logs. */
    Map<String, ChildProcess> nodes() {
        return nodes;
    }

    @Override
    public void close() {
        List<String> order = new ArrayList<>(nodes.keySet());
        java.util.Collections.reverse(order);
        for (String name : order) {
            nodes.get(name).close();
        }
        links.values().forEach(LinkProxy::close);
    }
}
