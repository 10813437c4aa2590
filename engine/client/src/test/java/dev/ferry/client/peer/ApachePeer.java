package dev.ferry.client.peer;

import dev.ferry.format.ChildJvm;
import dev.ferry.remoting.RemotingClientConfig;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.TlsConfig;
import dev.ferry.remoting.endpoint.RemotingClient;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.header.GetRouteInfoRequestHeader;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * An Apache RocketMQ 5.3.3 name server and broker in a child JVM ({@link ClientSuiteBrokerMain}), on 127.0.0.1,
 * with every file under a temporary directory. Ready once the broker's routes are visible on the name
 * server (the broker registers 5-10 s after it listens). Closing kills the child JVM: a graceful stop
 * takes 15 s and the suite does not need one.
 */
public final class ApachePeer implements ClusterUnderTest, AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private final Process process;
    private final Path directory;
    private final int namesrvPort;
    private final int brokerPort;

    private final TlsConfig probeTls;

    private ApachePeer(Process process, Path directory, int namesrvPort, int brokerPort, TlsConfig probeTls) {
        this.probeTls = probeTls;
        this.process = process;
        this.directory = directory;
        this.namesrvPort = namesrvPort;
        this.brokerPort = brokerPort;
    }

    /** Starts the peer and waits until a producer could send to it. */
    public static ApachePeer start() throws IOException, InterruptedException {
        return start(List.of(), List.of(), TlsConfig.DISABLED);
    }

    /**
     * Starts a peer with ACL 2.0 on (authentication and authorization; the super user {@value #SUPER_USER} with
     * password {@value #SUPER_PASSWORD}) and TLS enforcing on both ports, presenting {@code certificate}.
     */
    public static ApachePeer startSecured(Path certificate, Path privateKey) throws IOException, InterruptedException {
        return start(List.of("-Dtls.server.mode=enforcing", "-Dtls.test.mode.enable=false", "-Dtls.enable=true",
                "-Dtls.server.certPath=" + certificate, "-Dtls.server.keyPath=" + privateKey),
                List.of("secured", SUPER_USER, SUPER_PASSWORD), TlsConfig.client(certificate));
    }

    /**
     * Starts a peer with ACL 2.0 on (authentication and authorization; the super user {@value #SUPER_USER} with
     * password {@value #SUPER_PASSWORD}) and no TLS.
     */
    public static ApachePeer startWithAcl() throws IOException, InterruptedException {
        return start(List.of(), List.of("secured", SUPER_USER, SUPER_PASSWORD), TlsConfig.DISABLED);
    }

    public static final String SUPER_USER = "rocketmq";
    public static final String SUPER_PASSWORD = "12345678";

    private static ApachePeer start(List<String> jvmOptions, List<String> modeArgs, TlsConfig probeTls)
            throws IOException, InterruptedException {
        Path directory = Files.createTempDirectory("ferry-client-peer");
        int namesrvPort = freePort(0);
        int brokerPort = freeBrokerPort(namesrvPort);
        String classpath = ChildJvm.classPath();
        List<String> command = new ArrayList<>(ChildJvm.launcher("512m"));
        command.add("-Xms256m");
        command.addAll(jvmOptions);
        command.addAll(List.of("-Duser.home=" + directory, "-Drocketmq.home.dir=" + directory,
                "-Drocketmq.client.logRoot=" + directory.resolve("logs"),
                "-cp", classpath, ClientSuiteBrokerMain.class.getName(),
                directory.toString(), Integer.toString(namesrvPort), Integer.toString(brokerPort),
                Integer.toString(brokerPort + 1)));
        command.addAll(modeArgs);
        File log = directory.resolve("peer.log").toFile();
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log)).start();
        ApachePeer peer = new ApachePeer(process, directory, namesrvPort, brokerPort, probeTls);
        try {
            peer.awaitRoutes();
        } catch (RuntimeException | InterruptedException e) {
            process.destroyForcibly(); // keeps the directory: the exception names its log
            throw e;
        }
        return peer;
    }

    @Override
    public String nameServerAddress() {
        return "127.0.0.1:" + namesrvPort;
    }

    /** {@code host:port} of the broker. */
    public String brokerAddress() {
        return "127.0.0.1:" + brokerPort;
    }

    /** The child JVM's output, for failure messages. */
    public Path logFile() {
        return directory.resolve("peer.log");
    }

    /** Polls the name server until the auto-create topic TBW102 has a route: the broker registered. */
    private void awaitRoutes() throws InterruptedException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        try (RemotingClient client = new RemotingClient(RemotingClientConfig.builder()
                .connectTimeout(Duration.ofSeconds(1)).tls(probeTls).build())) {
            while (System.nanoTime() < deadline) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("the Apache peer exited with " + process.exitValue()
                            + "; see " + logFile());
                }
                try {
                    RemotingCommand response = client.invokeSync(nameServerAddress(), RemotingCommand.request(
                            RequestCode.GET_ROUTEINFO_BY_TOPIC, new GetRouteInfoRequestHeader("TBW102", null))
                            .build(), Duration.ofSeconds(2));
                    if (response.code() == ResponseCode.SUCCESS) {
                        return;
                    }
                } catch (RuntimeException e) {
                    // not listening yet
                }
                Thread.sleep(200);
            }
        }
        throw new IllegalStateException("the Apache peer did not register its broker within " + START_TIMEOUT
                + "; see " + logFile());
    }

    /**
     * A free port for an Apache broker, away from {@code avoid}: the broker also listens two below it (its VIP
     * channel) and one above (replication), so those are free too.
     */
    public static int freeBrokerPort(int avoid) throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(20_000, 40_000);
            if (Math.abs(port - avoid) > 3 && isFree(port - 2) && isFree(port) && isFree(port + 1)) {
                return port;
            }
        }
        throw new IOException("no free broker port");
    }

    /** {@code port} if it is free on the loopback interface, or any free port for 0. */
    public static int freePort(int port) throws IOException {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** Whether {@code port} is free on the loopback interface now. */
    public static boolean isFree(int port) {
        try {
            freePort(port);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Kills the child JVM and deletes its files. */
    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        TemporaryDirectory.deleteQuietly(directory);
    }

    @Override
    public String toString() {
        return "Apache RocketMQ 5.3.3 at " + nameServerAddress();
    }
}
