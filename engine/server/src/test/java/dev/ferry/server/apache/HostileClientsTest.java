package dev.ferry.server.apache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.remoting.RemotingLimits;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.body.DataVersion;
import dev.ferry.remoting.protocol.body.RegisterBrokerBody;
import dev.ferry.remoting.protocol.body.TopicConfig;
import dev.ferry.remoting.protocol.body.TopicConfigSerializeWrapper;
import dev.ferry.remoting.protocol.header.RegisterBrokerRequestHeader;
import dev.ferry.remoting.testing.Frames;
import java.net.InetAddress;
import java.nio.file.Files;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.header.namesrv.PutKVConfigRequestHeader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Unauthenticated clients trying to exhaust ferry-server as a hostile client would, each attack followed by an
 * unmodified Apache producer that must be served within its own send timeout while the attack goes on.
 */
@Tag("integration")
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
        return ferry(FerryServerFixture.small(dir).remotingLimits(limits).build());
    }

    private FerryServerFixture ferry(dev.ferry.server.FerryServerConfig config) {
        FerryServerFixture ferry = new FerryServerFixture(config);
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

    @Test
    void shouldBoundTheKeyValueConfigurationByBytesWhenAnUnauthenticatedClientFloodsItWithLargeValues()
            throws Exception {
        FerryServerFixture ferry = ferry(RemotingLimits.defaults());
        NettyRemotingClient raw = new NettyRemotingClient(new NettyClientConfig());
        raw.start();
        closeLast.add(0, raw::shutdown);
        String value = "v".repeat(64 * 1024);
        int stored = 0;
        int refused = 0;
        for (int i = 0; i < 300; i++) {
            PutKVConfigRequestHeader header = new PutKVConfigRequestHeader();
            header.setNamespace("flood");
            header.setKey("key-" + i);
            header.setValue(value);
            RemotingCommand answer = raw.invokeSync(ferry.nameServer(),
                    RemotingCommand.createRequestCommand(RequestCode.PUT_KV_CONFIG, header), 10_000);
            if (answer.getCode() == ResponseCode.SUCCESS) {
                stored++;
            } else {
                assertThat(answer.getCode()).isEqualTo(ResponseCode.SYSTEM_ERROR);
                assertThat(answer.getRemark()).contains("nameServerMaxKvBytes");
                refused++;
            }
        }

        assertThat(stored).as("128 KiB of heap each within the 4 MiB budget").isEqualTo(31);
        assertThat(refused).isEqualTo(300 - stored);
        assertThat(Files.size(dir.resolve("namesrv").resolve("kvConfig.json"))).isLessThan(4L << 20);
        apacheProducerIsServed(ferry, 20);
    }

    @Test
    void shouldRouteTheRealBrokersNewTopicAtOnceWhileMadeUpBrokersFloodTheRouteTable() throws Exception {
        // the name server's total scaled down from 1,000,000 so that the flood fills it in a test's time and heap
        FerryServerFixture ferry = ferry(FerryServerFixture.small(dir).nameServer(n -> n.maxTopics(100_000))
                .build());
        int namesrvPort = Integer.parseInt(ferry.nameServer().substring(ferry.nameServer().lastIndexOf(':') + 1));
        InetAddress elsewhere = InetAddress.getByName("127.0.0.2");
        String longName = "x".repeat(100);
        for (int b = 0; b < 26; b++) { // each over a connection of its own, held open
            Map<String, TopicConfig> topics = new HashMap<>();
            for (int t = 0; t < 10_000; t++) {
                String topic = longName + "-" + b + "-" + t;
                topics.put(topic, TopicConfig.of(topic, 4));
            }
            byte[] body = new BodyCodec().encode(new RegisterBrokerBody(new TopicConfigSerializeWrapper(topics,
                    new DataVersion(0, 1, 1)), List.of()));
            Socket socket = new Socket("127.0.0.1", namesrvPort, elsewhere, 0);
            attack.add(socket);
            socket.getOutputStream().write(Frames.of(dev.ferry.remoting.RemotingCommand.request(
                    dev.ferry.remoting.protocol.RequestCode.REGISTER_BROKER, new RegisterBrokerRequestHeader(
                            "made-up-" + b, "127.0.0.2:" + (20_000 + b), "DefaultCluster", "", 0L, null, false,
                            false, 0)).body(body).build()));
        }
        await().atMost(TIMEOUT).until(() -> ferry.server().nameServer().routes().routeEntries() == 100_000);

        DefaultMQProducer producer = new DefaultMQProducer("PG_REAL");
        producer.setNamesrvAddr(ferry.nameServer());
        producer.setInstanceName("real" + System.nanoTime());
        producer.start();
        try {
            Message message = new Message("TopicBornUnderFlood", "new".getBytes(StandardCharsets.UTF_8));
            assertThat(producer.send(message).getSendStatus()).isEqualTo(SendStatus.SEND_OK);
        } finally {
            producer.shutdown();
        }

        await().atMost(Duration.ofSeconds(10))
                .until(() -> ferry.server().nameServer().routes().route("TopicBornUnderFlood") != null);
        assertThat(ferry.server().nameServer().routes().routeEntries()).isEqualTo(100_000);
    }
}
