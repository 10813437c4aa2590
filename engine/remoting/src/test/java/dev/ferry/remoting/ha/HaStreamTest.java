package dev.ferry.remoting.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.format.ManualClock;
import dev.ferry.remoting.Credentials;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A master's HA port and a slave over real sockets: peers that never say hello are closed at the deadline and, when
 * too many are at it, the oldest make room, so the real slave replicates; a slave with other credentials gets
 * nothing; a slave follows a master that greets nobody (Apache's) with the classic protocol.
 */
class HaStreamTest {
    private static final Credentials BROKER = new Credentials("ferry-broker", "broker-secret");
    private static final Duration WITHIN = Duration.ofSeconds(10);
    private static final HaSlaveListener NOBODY = new HaSlaveListener() {
        @Override
        public void acknowledged(Object link, long offset) {
        }

        @Override
        public void slaveGone(Object link) {
        }
    };

    private final ManualClock masterClock = new ManualClock();
    private final ManualClock slaveClock = new ManualClock();
    private final MemoryLog master = new MemoryLog();
    private final MemoryLog slave = new MemoryLog();
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private <T extends AutoCloseable> T opened(T closeable) {
        open.add(closeable);
        return closeable;
    }

    private HaStreamServer server(HaLimits limits) {
        HaStreamServer server = opened(new HaStreamServer(new HaIdentity("broker-a", 0, Optional.of(BROKER)), limits,
                "127.0.0.1", 0, master, NOBODY, new DefaultThreadFactory("ha-master", true), masterClock));
        return server;
    }

    private HaStreamClient slave(Credentials credentials, int port) {
        HaStreamClient client = opened(new HaStreamClient(slave, new HaIdentity("broker-a", 1,
                Optional.of(credentials)), new DefaultThreadFactory("ha-slave", true), slaveClock));
        client.master("127.0.0.1:" + port);
        return client;
    }

    private Socket peer(int port) throws IOException {
        Socket socket = opened(new Socket(InetAddress.getLoopbackAddress(), port));
        socket.setSoTimeout(10_000);
        return socket;
    }

    /** Whether the master closed {@code socket}: it reads past the greeting to the end of the stream. */
    private static boolean closedByMaster(Socket socket) {
        try {
            InputStream in = socket.getInputStream();
            while (in.read() >= 0) {
                // the greeting, and a refusal's code
            }
            return true;
        } catch (IOException e) {
            return true; // reset
        }
    }

    @Test
    void shouldReplicateToTheRealSlaveWhilePeersThatNeverSayHelloOutnumberThePendingPlaces() throws Exception {
        HaStreamServer server = server(new HaLimits(Duration.ofSeconds(5), 4));
        int port = server.start();
        master.append("before the peers".getBytes(StandardCharsets.UTF_8));
        List<Socket> peers = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            peers.add(peer(port));
        }
        await().atMost(WITHIN).until(() -> peers.subList(0, 16).stream().allMatch(HaStreamTest::closedByMaster));
        assertThat(server.slaves()).isZero();

        slave(BROKER, port);
        await().atMost(WITHIN).until(() -> slave.endOffset() == master.endOffset());
        master.append(", and after".getBytes(StandardCharsets.UTF_8));
        server.appended();
        await().atMost(WITHIN).untilAsserted(() -> assertThat(new String(slave.bytes(), StandardCharsets.UTF_8))
                .isEqualTo("before the peers, and after"));
        assertThat(server.slaves()).isEqualTo(1);
    }

    @Test
    void shouldCloseAPeerThatSaysNoHelloByTheDeadline() throws Exception {
        int port = server(new HaLimits(Duration.ofSeconds(5), 64)).start();
        Socket silent = peer(port);
        DataInputStream in = new DataInputStream(silent.getInputStream());
        assertThat(in.readInt()).as("the greeting").isEqualTo(HaGreeting.MAGIC);
        in.skipNBytes(HaGreeting.SIZE - 4);
        masterClock.advance(Duration.ofSeconds(5).plusNanos(1));
        await().atMost(WITHIN).until(() -> closedByMaster(silent));
    }

    @Test
    void shouldStreamNothingToASlaveWithOtherCredentials() throws Exception {
        HaStreamServer server = server(HaLimits.DEFAULTS);
        int port = server.start();
        master.append(new byte[] {1, 2, 3});
        HaStreamClient client = slave(new Credentials("ferry-broker", "guessed"), port);
        await().during(Duration.ofSeconds(2)).atMost(WITHIN).until(() -> slave.endOffset() == 0
                && server.slaves() == 0);
        assertThat(client.reported()).as("it never got to report").isEqualTo(-1);
    }

    @Test
    void shouldFollowAMasterThatGreetsNobodyWithTheClassicProtocol() throws Exception {
        try (ServerSocket apache = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            slave(BROKER, apache.getLocalPort());
            try (Socket link = apache.accept()) {
                link.setSoTimeout(10_000);
                DataInputStream in = new DataInputStream(link.getInputStream());
                // time passes for the slave until it gives up waiting for a greeting
                await().atMost(WITHIN).pollInterval(Duration.ofMillis(300)).until(() -> {
                    slaveClock.advance(HaStreamClient.GREETING_WAIT);
                    return in.available() >= 8;
                });
                assertThat(in.readLong()).as("the classic first report: where its log ends").isZero();
                DataOutputStream out = new DataOutputStream(link.getOutputStream());
                out.writeLong(0);
                out.writeInt(3);
                out.write(new byte[] {7, 8, 9});
                out.flush();
                await().atMost(WITHIN).until(() -> slave.endOffset() == 3);
            }
        }
    }
}
