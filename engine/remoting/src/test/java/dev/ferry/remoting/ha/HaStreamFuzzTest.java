package dev.ferry.remoting.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.format.Clock;
import dev.ferry.format.RoundBudget;
import dev.ferry.remoting.Credentials;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The HA port's handshake fuzzed: 150 connections (400 with the long test budget), {@value #PARALLEL} at a time, each answering the
 * master's greeting with random bytes or with a hello signed with the broker's credentials and then mutated (a byte
 * changed, cut short, lengthened within its announced body, its length field changed). None becomes a slave, every one
 * is closed (at once or at the deadline), and afterwards the real slave replicates.
 */
@Tag("integration")
class HaStreamFuzzTest {
    private static final int CONNECTIONS = RoundBudget.rounds(150, 400);
    private static final int PARALLEL = 8;
    private static final long SEED = 42;
    private static final Credentials BROKER = new Credentials("ferry-broker", "broker-secret");
    private static final HaSlaveListener NOBODY = new HaSlaveListener() {
        @Override
        public void acknowledged(Object link, long offset) {
        }

        @Override
        public void slaveGone(Object link) {
        }
    };

    @Test
    void shouldAdmitNoMutatedHelloNorRandomBytesAndStillServeTheRealSlave() throws Exception {
        MemoryLog master = new MemoryLog();
        MemoryLog slave = new MemoryLog();
        master.append("the commit log".getBytes(StandardCharsets.UTF_8));
        AtomicInteger accepted = new AtomicInteger();
        ExecutorService peers = Executors.newFixedThreadPool(PARALLEL, new DefaultThreadFactory("ha-fuzz", true));
        try (HaStreamServer server = new HaStreamServer(new HaIdentity("broker-a", 0, Optional.of(BROKER)),
                new HaLimits(Duration.ofMillis(300), 64), "127.0.0.1", 0, master, NOBODY,
                new DefaultThreadFactory("ha-fuzz-master", true), Clock.system())) {
            int port = server.start();
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < CONNECTIONS; i++) {
                Random random = new Random(SEED + i);
                done.add(peers.submit(() -> {
                    if (fuzz(port, random)) {
                        accepted.incrementAndGet();
                    }
                    return null;
                }));
            }
            for (Future<?> each : done) {
                each.get();
            }
            assertThat(accepted).as("mutated hellos accepted").hasValue(0);
            assertThat(server.slaves()).isZero();

            try (HaStreamClient client = new HaStreamClient(slave, new HaIdentity("broker-a", 1, Optional.of(BROKER)),
                    new DefaultThreadFactory("ha-fuzz-slave", true), Clock.system())) {
                client.master("127.0.0.1:" + port);
                await().atMost(Duration.ofSeconds(10)).until(() -> slave.endOffset() == master.endOffset());
            }
        } finally {
            peers.shutdownNow();
        }
    }

    /** One connection; whether the master accepted what it sent. */
    private static boolean fuzz(int port, Random random) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(10_000);
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] greeting = new byte[HaGreeting.SIZE];
            in.readFully(greeting);
            byte[] nonce = HaGreeting.read(Unpooled.wrappedBuffer(greeting)).orElseThrow().nonce();
            socket.getOutputStream().write(random.nextInt(4) == 0 ? noise(random) : mutated(nonce, random));
            socket.getOutputStream().flush();
            return verdict(in) == HaGreeting.ACCEPTED;
        }
    }

    /** The master's verdict, or -1 when it closed without one (at the deadline); read until it closes. */
    private static int verdict(InputStream in) {
        try {
            byte[] result = in.readNBytes(HaGreeting.RESULT_SIZE);
            while (in.read() >= 0) {
                // an accepted peer would be streamed the log: it is not, as it is never accepted
            }
            return result.length == HaGreeting.RESULT_SIZE ? result[4] : -1;
        } catch (IOException e) {
            return -1; // reset
        }
    }

    private static byte[] noise(Random random) {
        byte[] bytes = new byte[random.nextInt(700)];
        random.nextBytes(bytes);
        return bytes;
    }

    private static byte[] mutated(byte[] nonce, Random random) {
        ByteBuf out = Unpooled.buffer();
        HaHello.of(new HaIdentity("broker-a", 1 + random.nextInt(3), Optional.of(BROKER)), nonce).writeTo(out);
        byte[] hello = new byte[out.readableBytes()];
        out.readBytes(hello);
        switch (random.nextInt(4)) {
            case 0 -> hello[random.nextInt(hello.length)] ^= (byte) (1 + random.nextInt(255));
            case 1 -> hello = java.util.Arrays.copyOf(hello, random.nextInt(hello.length));
            case 2 -> { // bytes inside the body: its length field counts them
                int extra = 1 + random.nextInt(64);
                hello = java.util.Arrays.copyOf(hello, hello.length + extra);
                int length = (hello[4] & 0xFF) << 8 | (hello[5] & 0xFF);
                hello[4] = (byte) ((length + extra) >> 8);
                hello[5] = (byte) (length + extra);
            }
            default -> {
                int length = ((hello[4] & 0xFF) << 8 | (hello[5] & 0xFF)) + (random.nextBoolean() ? 1 : -1)
                        * (1 + random.nextInt(40));
                hello[4] = (byte) (length >> 8);
                hello[5] = (byte) length;
            }
        }
        return hello;
    }
}
