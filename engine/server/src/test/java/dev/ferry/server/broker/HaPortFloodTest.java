package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.format.Clock;
import dev.ferry.format.StoredMessageView;
import dev.ferry.remoting.Credentials;
import dev.ferry.server.FerryServer;
import dev.ferry.server.FerryServerConfig;
import dev.ferry.server.auth.AuthConfig;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A SYNC_MASTER's HA port under 20 hostile peers that keep reconnecting (silent ones, ones reporting offset 0 as an
 * Apache slave would, hellos of another broker name or with a forged signature, random bytes): none becomes a slave,
 * and the real slave connects, replicates and confirms sends throughout.
 */
@Tag("integration")
class HaPortFloodTest {
    private static final String GROUP = "broker-ha";
    private static final Credentials BROKER = new Credentials("ferry-broker", "broker-secret");
    private static final int PEERS = 20;
    private static final Duration WITHIN = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    private final ExecutorService attackers = Executors.newCachedThreadPool(new DefaultThreadFactory("ha-peer", true));
    private final AtomicInteger attempts = new AtomicInteger();
    private volatile boolean attacking = true;

    @AfterEach
    void stopAttacking() throws InterruptedException {
        attacking = false;
        attackers.shutdownNow();
        assertThat(attackers.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    private static FerryServerConfig.Builder node(Path store, AuthConfig auth) {
        return FerryServerConfig.builder(store).namesrvPort(0).brokerPort(0).commitLogSegmentSize(8 * 1024 * 1024)
                .brokerName(GROUP).auth(auth);
    }

    private static FerryServer start(FerryServerConfig config) {
        return new FerryServer(config, Clock.system(), new DefaultThreadFactory("ha-flood", true)).start();
    }

    private static AuthConfig authentication() {
        return new AuthConfig(true, false, Optional.empty(), Optional.of(BROKER));
    }

    @Test
    void shouldStartReplicatingToTheRealSlaveWhilePeersWithoutTheCredentialsFloodTheHaPort() throws Exception {
        floodAndReplicate(authentication(), Optional.of(new AclClientRPCHook(new SessionCredentials(
                BROKER.accessKey(), BROKER.secretKey()))), false);
    }

    @Test
    void shouldKeepReplicatingToTheRealSlaveWhilePeersFloodTheHaPortWithoutAuthentication() throws Exception {
        // without credentials a peer that knows the broker name passes the handshake: it cannot take the slot of
        // the slave that is connected and reporting, which is what this shows
        floodAndReplicate(AuthConfig.DISABLED, Optional.empty(), true);
    }

    private void floodAndReplicate(AuthConfig auth, Optional<AclClientRPCHook> hook, boolean slaveFirst)
            throws Exception {
        try (FerryServer master = start(node(dir.resolve("master"), auth)
                .broker(b -> b.brokerRole(BrokerRole.SYNC_MASTER)).build())) {
            String[] ha = master.broker().haAddress().split(":");
            int port = Integer.parseInt(ha[1]);
            DefaultMQProducer producer = hook.map(h -> new DefaultMQProducer("ha-flood", h))
                    .orElseGet(() -> new DefaultMQProducer("ha-flood"));
            producer.setNamesrvAddr(master.nameServerAddress());
            producer.setInstanceName("ha-flood-" + System.nanoTime());
            producer.setSendMsgTimeout(10_000);
            FerryServer slave = null;
            try {
                if (slaveFirst) {
                    slave = startSlave(master, auth);
                    producer.start();
                    sendAndReadOnTheSlave(producer, slave, "before");
                }
                for (int i = 0; i < PEERS; i++) {
                    int kind = i % 5;
                    attackers.execute(() -> attack(ha[0], port, kind));
                }
                await().atMost(WITHIN).until(() -> attempts.get() >= PEERS);
                if (!slaveFirst) {
                    slave = startSlave(master, auth);
                    producer.start();
                }
                for (int i = 0; i < 3; i++) {
                    long attemptsBefore = attempts.get();
                    sendAndReadOnTheSlave(producer, slave, "during-" + i);
                    await().atMost(WITHIN).until(() -> attempts.get() > attemptsBefore); // still attacking
                }
            } finally {
                producer.shutdown();
                if (slave != null) {
                    slave.close();
                }
            }
        }
    }

    private static FerryServer startSlave(FerryServer master, AuthConfig auth) {
        return start(node(master.config().storeDir().resolveSibling("slave"), auth)
                .role(FerryServerConfig.Role.BROKER).nameServers(List.of(master.nameServerAddress()))
                .broker(b -> b.brokerRole(BrokerRole.SLAVE).brokerId(1)).build());
    }

    /** A SYNC_MASTER answers SEND_OK only once its slave has the message; the slave's store then has it too. */
    private static void sendAndReadOnTheSlave(DefaultMQProducer producer, FerryServer slave, String body) {
        SendResult sent = await().atMost(WITHIN).ignoreExceptions().until(() -> producer.send(
                new Message("HaFlood", body.getBytes(StandardCharsets.UTF_8))),
                result -> result.getSendStatus() == SendStatus.SEND_OK);
        await().atMost(WITHIN).untilAsserted(() -> assertThat(slave.broker().store()
                .messageByOffsetId(sent.getOffsetMsgId())).map(HaPortFloodTest::body).contains(body));
    }

    private static String body(StoredMessageView message) {
        return new String(message.bodyBytes(), StandardCharsets.UTF_8);
    }

    /** One hostile peer of the given kind, reconnecting whenever the master closes it. */
    private void attack(String host, int port, int kind) {
        Random random = new Random(kind);
        while (attacking) {
            try (Socket socket = new Socket(host, port)) {
                attempts.incrementAndGet();
                socket.setSoTimeout(30_000);
                OutputStream out = socket.getOutputStream();
                InputStream in = socket.getInputStream();
                switch (kind) {
                    case 0 -> { } // silent: waits out the handshake's deadline
                    case 1 -> out.write(new byte[8]); // an Apache slave's first report: offset 0
                    case 2 -> out.write(hello("broker-other", 1, "", new byte[0]));
                    case 3 -> {
                        // the real slave's name and id: with authentication the signature is forged
                        byte[] forged = new byte[32];
                        random.nextBytes(forged);
                        out.write(hello(GROUP, 1, BROKER.accessKey(), forged));
                    }
                    default -> {
                        byte[] noise = new byte[1 + random.nextInt(600)];
                        random.nextBytes(noise);
                        out.write(noise);
                    }
                }
                out.flush();
                while (attacking && in.read() >= 0) {
                    // reads what the master sends (a greeting and a refusal) until it closes
                }
            } catch (IOException e) {
                // closed by the master, or the master is gone: connect again
            }
        }
    }

    /** A hello as the HA port's wire carries it: magic, length, version, brokerId, name, access key, signature. */
    private static byte[] hello(String name, long brokerId, String accessKey, byte[] signature) {
        byte[] nameBytes = name.getBytes(StandardCharsets.UTF_8);
        byte[] key = accessKey.getBytes(StandardCharsets.UTF_8);
        int body = 1 + 8 + 1 + nameBytes.length + 1 + key.length + 1 + signature.length;
        return ByteBuffer.allocate(6 + body).putInt(0x46524841).putShort((short) body).put((byte) 1)
                .putLong(brokerId).put((byte) nameBytes.length).put(nameBytes).put((byte) key.length).put(key)
                .put((byte) signature.length).put(signature).array();
    }
}
