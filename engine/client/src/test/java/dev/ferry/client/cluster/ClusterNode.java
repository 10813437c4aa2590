package dev.ferry.client.cluster;

import dev.ferry.client.peer.ApachePeer;
import dev.ferry.format.ChildJvm;
import dev.ferry.format.ChildProcess;
import dev.ferry.format.FixedPorts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One name server alone or broker alone in a child JVM: {@code ferry-server namesrv|broker} started as its launcher
 * starts it, or Apache RocketMQ 5.3.3's ({@link ApacheNodeMain}), with a small heap and small commit-log files.
 * Restarting reuses the arguments, so a broker comes back on its port and its store ({@link ChildProcess}).
 */
final class ClusterNode implements AutoCloseable {
    private static final String FERRY_MAIN = "dev.ferry.server.cli.FerryServerCommand";

    private final String name;
    private final String mainClass;
    private final List<String> arguments;
    private final Path log;
    private final int port;
    private ChildProcess process;

    private ClusterNode(String name, String mainClass, List<String> arguments, Path log, int port) {
        this.name = name;
        this.mainClass = mainClass;
        this.arguments = arguments;
        this.log = log;
        this.port = port;
    }

    /** A Ferry name server alone on a free port. */
    static ClusterNode nameServer(Path dir, String name) throws IOException, InterruptedException {
        int port = freePort();
        ClusterNode node = new ClusterNode(name, FERRY_MAIN, List.of("namesrv", "--port", Integer.toString(port),
                "--store-dir", dir.resolve(name).toString()), dir.resolve(name + ".log"), port);
        node.start();
        return node;
    }

    /** An Apache 5.3.3 name server alone on a free port. */
    static ClusterNode apacheNameServer(Path dir, String name) throws IOException, InterruptedException {
        int port = freePort();
        ClusterNode node = new ClusterNode(name, ApacheNodeMain.class.getName(), List.of("namesrv",
                dir.resolve(name).toString(), Integer.toString(port)), dir.resolve(name + ".log"), port);
        node.start();
        return node;
    }

    /** An Apache 5.3.3 master broker alone (ASYNC_MASTER), registering with {@code nameServers}. */
    static ClusterNode apacheBroker(Path dir, String brokerName, String clusterName, String nameServers)
            throws IOException, InterruptedException {
        return apacheBroker(dir, brokerName, brokerName, clusterName, nameServers, false);
    }

    /** An Apache 5.3.3 broker alone named {@code node}: a master, or a slave (brokerId 1) of {@code brokerName}. */
    static ClusterNode apacheBroker(Path dir, String node, String brokerName, String clusterName, String nameServers,
                                    boolean slave) throws IOException, InterruptedException {
        int port = ApachePeer.freeBrokerPort(0);
        List<String> arguments = new ArrayList<>(List.of("broker", dir.resolve(node).toString(), nameServers,
                brokerName, clusterName, Integer.toString(port)));
        if (slave) {
            arguments.add("slave");
        }
        ClusterNode started = new ClusterNode(node, ApacheNodeMain.class.getName(), arguments,
                dir.resolve(node + ".log"), port);
        started.start();
        return started;
    }

    /**
     * A master broker alone on a free port, registering with {@code nameServers} ({@code host:port;...}), writing
     * with SYNC_FLUSH, re-registering every second (so tests need not wait Apache's 30 s).
     */
    static ClusterNode broker(Path dir, String brokerName, String clusterName, String nameServers)
            throws IOException, InterruptedException {
        return broker(dir, brokerName, brokerName, clusterName, nameServers, Map.of());
    }

    /**
     * A broker alone as {@link #broker(Path, String, String, String)}, named {@code node} (its log and store), with
     * {@code settings} added to its config file (a role, an id, ...).
     */
    static ClusterNode broker(Path dir, String node, String brokerName, String clusterName, String nameServers,
                              Map<String, String> settings) throws IOException, InterruptedException {
        int port = brokerPort();
        Path config = dir.resolve(node + ".properties");
        Files.createDirectories(dir);
        List<String> lines = new ArrayList<>(List.of("brokerName=" + brokerName, "brokerClusterName=" + clusterName,
                "namesrvAddr=" + nameServers, "listenPort=" + port, "flushMode=SYNC_FLUSH",
                "commitLogSegmentSize=" + (8 << 20), "registerNameServerPeriod=1000"));
        settings.forEach((key, value) -> lines.add(key + "=" + value));
        Files.writeString(config, String.join("\n", lines) + "\n");
        ClusterNode started = new ClusterNode(node, FERRY_MAIN, List.of("broker", "--config", config.toString(),
                "--store-dir", dir.resolve(node).toString()), dir.resolve(node + ".log"), port);
        started.start();
        return started;
    }

    /**
     * A broker alone started from an Apache broker config file as is ({@code ferry-server broker --config}), with only
     * what must differ per test machine added: the name servers, a free port, a store directory of its own
     * (Apache's storePathRootDir), small commit-log files and a registration every second.
     */
    static ClusterNode brokerFromApacheFile(Path dir, String node, Path apacheFile, String nameServers)
            throws IOException, InterruptedException {
        int port = brokerPort();
        Files.createDirectories(dir);
        Path config = dir.resolve(node + ".properties");
        List<String> lines = new ArrayList<>(Files.readAllLines(apacheFile, StandardCharsets.UTF_8));
        lines.addAll(List.of("namesrvAddr=" + nameServers, "listenPort=" + port,
                "storePathRootDir=" + dir.resolve(node), "mappedFileSizeCommitLog=" + (8 << 20),
                "registerNameServerPeriod=1000"));
        Files.writeString(config, String.join("\n", lines) + "\n");
        ClusterNode started = new ClusterNode(node, FERRY_MAIN, List.of("broker", "--config", config.toString()),
                dir.resolve(node + ".log"), port);
        started.start();
        return started;
    }

    /**
     * Puts {@code settings} in this broker's config file in place of what it said there, for its next {@link #start}:
     * as an operator changes a broker's role.
     */
    void reconfigure(Path dir, Map<String, String> settings) throws IOException {
        Path config = dir.resolve(name + ".properties");
        List<String> lines = new ArrayList<>();
        for (String line : Files.readAllLines(config, StandardCharsets.UTF_8)) {
            if (!settings.containsKey(line.split("=", 2)[0].trim())) {
                lines.add(line);
            }
        }
        settings.forEach((key, value) -> lines.add(key + "=" + value));
        Files.writeString(config, String.join("\n", lines) + "\n");
    }

    /** Where this node keeps its files (a broker's store). */
    Path storeDir(Path dir) {
        return dir.resolve(name);
    }

    /** Starts the child JVM and waits for its ready line. */
    void start() throws IOException, InterruptedException {
        if (process == null) {
            process = new ChildProcess(name, ChildProcess.java("256m", ChildJvm.classPath(), mainClass,
                    List.of("-Duser.home=" + log.getParent(), "-Drocketmq.home.dir=" + log.getParent()), arguments),
                    log, " ready"); // the ready line, not an earlier one saying "already"
        }
        try {
            process.start(60);
        } catch (IOException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    /** The last {@code lines} lines this node printed in its current run, for a failure's message. */
    String output(int lines) {
        return process.tail(lines);
    }

    /** {@code 127.0.0.1:port}: the name server's or the broker's address. */
    String address() {
        return "127.0.0.1:" + port;
    }

    String name() {
        return name;
    }

    /** SIGKILL: no shutdown hook, no flush, no unregistration. */
    void kill() throws InterruptedException {
        process.kill();
    }

    /** SIGSTOP: the process and its connections stay, but it answers nothing until {@link #resume()}. */
    void pause() {
        process.pause();
    }

    /** SIGCONT after {@link #pause()}. */
    void resume() {
        process.resume();
    }

    /** SIGTERM; returns once it stopped cleanly. */
    void stop() throws InterruptedException {
        process.stop(60);
        try {
            process.awaitOutput("stopped cleanly", 5);
        } catch (IOException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    /**
     * A port for a broker, with the one above it (a SYNC_MASTER's replication port) free too, below the ports the
     * system hands to outgoing connections (32768 and up on Linux): a broker killed and started again must find both
     * still free, and while it is down the slave and the clients keep connecting to it, each from a new ephemeral
     * port that could otherwise be one of them.
     */
    private static int brokerPort() throws IOException {
        return FixedPorts.pick(ThreadLocalRandom.current(), true, List.of("127.0.0.1"));
    }

    private static int freePort() throws IOException {
        return ApachePeer.freePort(0);
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            try {
                process.kill();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public String toString() {
        return name + " at " + address();
    }
}
