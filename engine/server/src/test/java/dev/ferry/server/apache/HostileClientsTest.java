package dev.ferry.server.apache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.remoting.RemotingLimits;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Unauthenticated clients trying to exhaust ferry-server as a hostile client would, each attack followed by an
 * unmodified Apache producer that must be served within its own send timeout while the attack goes on.
 */
class HostileClientsTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    @TempDir
    Path dir;
    private final List<Socket> attack = new ArrayList<>();
    private final List<AutoCloseable> closeLast = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (Socket socket : attack) {
            socket.close();
        }
        for (AutoCloseable closeable : closeLast) {
            closeable.close();
        }
    }

    private FerryServerFixture ferry(RemotingLimits limits) {
        FerryServerFixture ferry = new FerryServerFixture(FerryServerFixture.small(dir).remotingLimits(limits)
                .build());
        closeLast.add(ferry);
        return ferry;
    }

    /** A new Apache producer sends {@code count} messages, each within the client's default 3 s timeout. */
    private void apacheProducerIsServed(FerryServerFixture ferry, int count) throws Exception {
        DefaultMQProducer producer = new DefaultMQProducer("PG_REAL");
        producer.setNamesrvAddr(ferry.nameServer());
        producer.setInstanceName("real" + System.nanoTime());
        producer.start();
        try {
            for (int i = 0; i < count; i++) {
                Message message = new Message("TopicReal", ("order " + i).getBytes(StandardCharsets.UTF_8));
                assertThat(producer.send(message).getSendStatus()).isEqualTo(SendStatus.SEND_OK);
            }
        } finally {
            producer.shutdown();
        }
    }

    /** Opens a connection that sends the length prefix of a frame of {@code frameLength} bytes and 5 bytes of it. */
    private void startFrameAndStall(int port, int frameLength) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        attack.add(socket);
        socket.getOutputStream().write(ByteBuffer.allocate(9).putInt(frameLength - 4).put(new byte[5]).array());
    }

    @Test
    void shouldServeAnApacheProducerWhileHundredsOfConnectionsSendOnlyTheStartOfLargeFrames() throws Exception {
        FerryServerFixture ferry = ferry(RemotingLimits.defaults());
        int namesrvPort = Integer.parseInt(ferry.nameServer().substring(ferry.nameServer().lastIndexOf(':') + 1));
        for (int i = 0; i < 600; i++) {
            startFrameAndStall(ferry.server().brokerPort(), 64 * 1024);
        }
        for (int i = 0; i < 300; i++) {
            startFrameAndStall(namesrvPort, 64 * 1024);
        }
        await().atMost(TIMEOUT).until(() -> ferry.server().broker().stats().health().connections() >= 600);

        apacheProducerIsServed(ferry, 20);
    }

    @Test
    void shouldLetAnApacheProducerInWhileIdleConnectionsHoldEveryConnectionSlot() throws Exception {
        FerryServerFixture ferry = ferry(RemotingLimits.defaults().toBuilder().maxConnections(300).build());
        for (int i = 0; i < 350; i++) { // more than the broker keeps: the newest push the oldest silent ones out
            attack.add(new Socket("127.0.0.1", ferry.server().brokerPort()));
        }
        await().atMost(TIMEOUT).until(() -> ferry.server().broker().stats().health().connections() == 300);

        apacheProducerIsServed(ferry, 20);
    }
}
