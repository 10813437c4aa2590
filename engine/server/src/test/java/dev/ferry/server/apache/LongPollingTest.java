package dev.ferry.server.apache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.InvokeCallback;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.netty.ResponseFuture;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.header.PullMessageRequestHeader;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A pull with nothing to read is held until a message arrives, or answered empty when its time is up. */
@Tag("integration")
class LongPollingTest {
    @TempDir
    Path dir;

    private static PullMessageRequestHeader pull(long offset, long suspendMillis, String expression) {
        PullMessageRequestHeader h = new PullMessageRequestHeader();
        h.setConsumerGroup("CG_LONG");
        h.setTopic("TopicLong");
        h.setQueueId(0);
        h.setQueueOffset(offset);
        h.setMaxMsgNums(32);
        h.setSysFlag((1 << 1) | (1 << 2)); // suspend, subscription included
        h.setCommitOffset(0L);
        h.setSuspendTimeoutMillis(suspendMillis);
        h.setSubVersion(0L);
        h.setExpressionType("TAG");
        h.setSubscription(expression);
        return h;
    }

    private static CompletableFuture<RemotingCommand> pullAsync(NettyRemotingClient client, String broker,
                                                                PullMessageRequestHeader header) throws Exception {
        CompletableFuture<RemotingCommand> future = new CompletableFuture<>();
        client.invokeAsync(broker, RemotingCommand.createRequestCommand(RequestCode.PULL_MESSAGE, header), 30_000,
                new InvokeCallback() {
                    @Override
                    public void operationComplete(ResponseFuture responseFuture) {
                    }

                    @Override
                    public void operationSucceed(RemotingCommand response) {
                        future.complete(response);
                    }

                    @Override
                    public void operationFail(Throwable throwable) {
                        future.completeExceptionally(throwable);
                    }
                });
        return future;
    }

    @Test
    void shouldHoldAPullUntilAMatchingMessageArrives() throws Exception {
        try (FerryServerFixture ferry = new FerryServerFixture(dir);
             ApacheClients clients = new ApacheClients(ferry.nameServer())) {
            DefaultMQProducer producer = clients.producer("PG_LONG");
            NettyRemotingClient client = rawClient(clients);
            String broker = "127.0.0.1:" + ferry.server().brokerPort();
            MessageQueue queue = new MessageQueue("TopicLong", "broker-a", 0);
            producer.send(new Message("TopicLong", "TagA", "first".getBytes()), queue);

            CompletableFuture<RemotingCommand> held = pullAsync(client, broker, pull(1, 20_000, "TagB"));
            // a message that does not match the subscription does not answer it
            producer.send(new Message("TopicLong", "TagA", "other".getBytes()), queue);
            producer.send(new Message("TopicLong", "TagA", "other".getBytes()), queue);
            assertThat(held.isDone()).isFalse();
            producer.send(new Message("TopicLong", "TagB", "wanted".getBytes()), queue);

            RemotingCommand response = held.get(10, TimeUnit.SECONDS);
            assertThat(response.getCode()).isEqualTo(ResponseCode.SUCCESS);
            MessageExt message = MessageDecoder.decodes(java.nio.ByteBuffer.wrap(response.getBody())).get(0);
            assertThat(new String(message.getBody())).isEqualTo("wanted");
            assertThat(message.getQueueOffset()).isEqualTo(3);
        }
    }

    @Test
    void shouldAnswerPullNotFoundWhenTheHoldTimesOut() throws Exception {
        try (FerryServerFixture ferry = new FerryServerFixture(dir);
             ApacheClients clients = new ApacheClients(ferry.nameServer())) {
            DefaultMQProducer producer = clients.producer("PG_LONG");
            NettyRemotingClient client = rawClient(clients);
            String broker = "127.0.0.1:" + ferry.server().brokerPort();
            producer.send(new Message("TopicLong", "TagA", "first".getBytes()),
                    new MessageQueue("TopicLong", "broker-a", 0));
            RemotingCommand response = pullAsync(client, broker, pull(1, 500, "*")).get(10, TimeUnit.SECONDS);
            assertThat(response.getCode()).isEqualTo(ResponseCode.PULL_NOT_FOUND);
            assertThat(response.getExtFields()).containsEntry("nextBeginOffset", "1");
        }
    }

    /** A started raw remoting client, shut down with the test's other clients. */
    private static NettyRemotingClient rawClient(ApacheClients clients) {
        NettyRemotingClient client = new NettyRemotingClient(new NettyClientConfig());
        client.start();
        clients.onClose(client::shutdown);
        return client;
    }
}
