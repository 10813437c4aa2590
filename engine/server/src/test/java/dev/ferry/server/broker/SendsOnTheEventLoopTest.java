package dev.ferry.server.broker;

import static dev.ferry.server.broker.RawRequests.pull;
import static dev.ferry.server.broker.RawRequests.send;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.format.Clock;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.server.FerryServer;
import dev.ferry.server.FerryServerConfig;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sends the broker stores on the event loop that read them ({@link InlineSends}) while its send lane is idle: they
 * skip the send thread, and a connection's sends are stored in the order they were sent whichever way each went.
 */
@Tag("integration")
class SendsOnTheEventLoopTest {
    private static final long TIMEOUT_MILLIS = 10_000;

    @TempDir
    Path dir;
    private FerryServer server;
    @RegisterExtension
    static final ClassRawClient raw = new ClassRawClient();
    private String broker;

    @BeforeEach
    void start() {
        server = new FerryServer(FerryServerConfig.builder(dir).namesrvPort(0).brokerPort(0)
                .commitLogSegmentSize(4 << 20).build(), Clock.system(), new DefaultThreadFactory("inline", true))
                .start();
        broker = "127.0.0.1:" + server.brokerPort();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aSendToAKnownTopicAtAnIdleBrokerSkipsTheSendThread() throws Exception {
        ThreadPoolExecutor sendThread = server.broker().executors().get("send");
        assertThat(raw.invokeSync(broker, send("TopicInline", "creates the topic", ""), TIMEOUT_MILLIS).getCode())
                .isEqualTo(ResponseCode.SUCCESS);
        long tasksAfterCreation = sendThread.getTaskCount();
        assertThat(tasksAfterCreation).as("creating the topic writes its file: the send thread's work").isEqualTo(1);
        // The lane's task answers before it is done; a send read before then still queues behind it, as it must.
        await().atMost(Duration.ofMillis(TIMEOUT_MILLIS))
                .until(() -> sendThread.getCompletedTaskCount() == tasksAfterCreation);

        for (int i = 0; i < 20; i++) {
            assertThat(raw.invokeSync(broker, send("TopicInline", "inline " + i, ""), TIMEOUT_MILLIS).getCode())
                    .isEqualTo(ResponseCode.SUCCESS);
        }

        assertThat(sendThread.getTaskCount()).isEqualTo(tasksAfterCreation);
        assertThat(bodies("TopicInline", 21)).hasSize(21).endsWith("inline 19");
    }

    @Test
    void aConnectionsSendsAreStoredInTheOrderItSentThemWhetherQueuedOrInline() throws Exception {
        int count = 2_000;
        List<CompletableFuture<Integer>> answers = new ArrayList<>();
        // The first creates the topic in the lane; those read while it or another waits there queue behind it, the
        // rest are stored on the event loop whenever the lane has run dry.
        for (int i = 0; i < count; i++) {
            CompletableFuture<Integer> answer = new CompletableFuture<>();
            raw.invokeAsync(broker, send("TopicOrder", Integer.toString(i), ""), TIMEOUT_MILLIS,
                    future -> answer.complete(future.getResponseCommand() == null ? -1
                            : future.getResponseCommand().getCode()));
            answers.add(answer);
        }
        for (CompletableFuture<Integer> answer : answers) {
            assertThat(answer.get(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)).isEqualTo(ResponseCode.SUCCESS);
        }

        List<String> stored = bodies("TopicOrder", count);
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            sent.add(Integer.toString(i));
        }
        assertThat(stored).isEqualTo(sent);
    }

    /**
     * The bodies of queue 0 of {@code topic}, in queue order, read until {@code expected} are read. A send's answer may
     * come before its message is in the consume queue, so each pull waits at the broker for what it asks for.
     */
    private List<String> bodies(String topic, int expected) throws Exception {
        List<String> bodies = new ArrayList<>();
        while (bodies.size() < expected) {
            RemotingCommand pulled = raw.invokeSync(broker, pull("CG_INLINE", topic, bodies.size(),
                    TIMEOUT_MILLIS / 2), TIMEOUT_MILLIS);
            assertThat(pulled.getCode()).as("pull at %d: %s", bodies.size(), pulled.getRemark())
                    .isEqualTo(ResponseCode.SUCCESS);
            MessageDecoder.decodes(ByteBuffer.wrap(pulled.getBody())).forEach(message ->
                    bodies.add(new String(message.getBody(), StandardCharsets.UTF_8)));
        }
        return bodies;
    }
}
