package dev.ferry.client.cluster;

import dev.ferry.server.cli.FerryServerCommand;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import picocli.CommandLine;

/**
 * A name server and several brokers of Ferry or of Apache RocketMQ 5.3.3, each a child JVM, for suites outside this
 * module (the application servers'): created, administered and read through {@code ferry-server admin}, which speaks
 * RocketMQ's protocol to both.
 */
public final class TestCluster implements AutoCloseable {
    private final ClusterNode nameServer;
    private final List<ClusterNode> brokers;

    private TestCluster(ClusterNode nameServer, List<ClusterNode> brokers) {
        this.nameServer = nameServer;
        this.brokers = brokers;
    }

    /** A Ferry name server and {@code count} Ferry brokers (broker-0, broker-1, ...), all under {@code dir}. */
    public static TestCluster ferry(Path dir, int count) throws IOException, InterruptedException {
        return start(dir, count, false);
    }

    /** An Apache name server and {@code count} Apache brokers (broker-0, broker-1, ...), all under {@code dir}. */
    public static TestCluster apache(Path dir, int count) throws IOException, InterruptedException {
        return start(dir, count, true);
    }

    private static TestCluster start(Path dir, int count, boolean apache) throws IOException, InterruptedException {
        ClusterNode nameServer = apache ? ClusterNode.apacheNameServer(dir, "ns") : ClusterNode.nameServer(dir, "ns");
        List<ClusterNode> brokers = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                brokers.add(apache ? ClusterNode.apacheBroker(dir, "broker-" + i, "TestCluster", nameServer.address())
                        : ClusterNode.broker(dir, "broker-" + i, "TestCluster", nameServer.address()));
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            brokers.forEach(ClusterNode::close);
            nameServer.close();
            throw e;
        }
        return new TestCluster(nameServer, brokers);
    }

    public String nameServerAddress() {
        return nameServer.address();
    }

    /** The brokers' names. */
    public List<String> brokerNames() {
        return brokers.stream().map(ClusterNode::name).toList();
    }

    /** SIGSTOP to broker {@code name}: its connections stay open, but it answers nothing until {@link #resume}. */
    public void pause(String name) throws IOException, InterruptedException {
        broker(name).pause();
    }

    /** SIGCONT to a broker {@link #pause paused} before. */
    public void resume(String name) throws IOException, InterruptedException {
        broker(name).resume();
    }

    /** SIGKILL to broker {@code name} (paused or not): whatever it had not read from its connections is lost. */
    public void kill(String name) throws InterruptedException {
        broker(name).kill();
    }

    /** Starts a {@link #kill killed} broker again, on its store and port. */
    public void restart(String name) throws IOException, InterruptedException {
        broker(name).start();
    }

    private ClusterNode broker(String name) {
        return brokers.stream().filter(b -> b.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no broker " + name + " in " + this));
    }

    /**
     * Creates {@code topic} with {@code queues} queues on every broker the name server knows; returns how many it
     * was created on.
     */
    public int createTopic(String topic, int queues) {
        return (int) admin(nameServer.address(), "topic", "create", topic, "--queues", Integer.toString(queues)).lines()
                .filter(line -> line.startsWith("created topic")).count();
    }

    /** The committed offsets of {@code group} on {@code topic}, summed per broker. */
    public Map<String, Long> committedPerBroker(String group, String topic) {
        Map<String, Long> committed = new TreeMap<>();
        String progress = admin(nameServer.address(), "offset", "progress", group, "--topic", topic);
        for (String line : progress.lines().toList()) {
            String[] columns = line.trim().split("\\s+");
            if (columns.length == 6 && columns[0].equals(topic)) {
                committed.merge(columns[1], Long.parseLong(columns[4]), Long::sum);
            }
        }
        return committed;
    }

    /**
     * Runs {@code ferry-server admin --namesrv NAMESERVER ARGS...} in this JVM against any cluster, Ferry's or
     * Apache's; returns what it printed.
     *
     * @throws IllegalStateException with its error output when it exits non-zero
     */
    public static String admin(String nameServer, String... args) {
        List<String> all = new ArrayList<>(List.of("admin", "--namesrv", nameServer));
        all.addAll(List.of(args));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = new CommandLine(new FerryServerCommand()).setOut(new PrintWriter(out))
                .setErr(new PrintWriter(err)).execute(all.toArray(String[]::new));
        if (exit != 0) {
            throw new IllegalStateException("ferry-server " + all + " failed: " + err);
        }
        return out.toString();
    }

    @Override
    public void close() {
        brokers.forEach(ClusterNode::close);
        nameServer.close();
    }

    @Override
    public String toString() {
        return brokers.size() + " brokers at " + nameServer.address();
    }
}
