package dev.ferry.server.apache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.testing.ClientShutdowns;
import dev.ferry.server.FerryServerConfig;
import dev.ferry.store.MessageStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.netty.NettyRequestProcessor;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;
import org.apache.rocketmq.remoting.protocol.header.GetConsumerListByGroupRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.GetConsumerListByGroupResponseBody;
import org.apache.rocketmq.remoting.protocol.header.QueryMessageRequestHeader;
import org.apache.rocketmq.remoting.protocol.heartbeat.ConsumeType;
import org.apache.rocketmq.remoting.protocol.heartbeat.ConsumerData;
import org.apache.rocketmq.remoting.protocol.heartbeat.HeartbeatData;
import org.apache.rocketmq.remoting.protocol.heartbeat.MessageModel;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Offsets, lookups and group bookkeeping, as the Apache client and admin calls see them. */
@Tag("integration")
class BrokerQueriesTest {
    @TempDir
    Path dir;

    private static DefaultMQProducer producer(String nameServer) throws MQClientException {
        DefaultMQProducer producer = new DefaultMQProducer("PG_QUERY");
        producer.setNamesrvAddr(nameServer);
        producer.setInstanceName("query" + System.nanoTime());
        producer.start();
        return producer;
    }

    @Test
    @SuppressWarnings("deprecation") // the MQAdmin calls of the producer are what tools use
    void shouldAnswerOffsetAndMessageLookups() throws Exception {
        try (FerryServerFixture ferry = new FerryServerFixture(dir)) {
            DefaultMQProducer producer = producer(ferry.nameServer());
            try {
                MessageQueue queue = new MessageQueue("TopicQuery", "broker-a", 1);
                long before = System.currentTimeMillis();
                List<SendResult> sent = new ArrayList<>();
                for (int i = 0; i < 5; i++) {
                    sent.add(producer.send(new Message("TopicQuery", "T", "order-" + i,
                            ("query " + i).getBytes(StandardCharsets.UTF_8)), queue));
                }
                // Consume queues are written just after the commit log: wait for the dispatch.
                await().atMost(Duration.ofSeconds(10)).until(() -> producer.maxOffset(queue) == 5);
                assertThat(producer.minOffset(queue)).isZero();
                assertThat(producer.searchOffset(queue, before - 60_000)).isZero();
                assertThat(producer.searchOffset(queue, System.currentTimeMillis() + 60_000)).isEqualTo(5);
                assertThat(producer.earliestMsgStoreTime(queue)).isBetween(before - 1000, System.currentTimeMillis());

                MessageExt viewed = producer.viewMessage("TopicQuery", sent.get(3).getOffsetMsgId());
                assertThat(new String(viewed.getBody(), StandardCharsets.UTF_8)).isEqualTo("query 3");
                assertThat(viewed.getKeys()).isEqualTo("order-3");

                var found = producer.queryMessage("TopicQuery", "order-2", 10, before - 1000,
                        System.currentTimeMillis() + 1000);
                assertThat(found.getMessageList()).extracting(MessageExt::getKeys).containsExactly("order-2");
            } finally {
                producer.shutdown();
            }
        }
    }

    @Test
    @SuppressWarnings("deprecation") // the MQAdmin calls of the producer are what tools use
    void shouldFindAMessageByItsUniqueKeyAndNotByAnotherMessagesKeys() throws Exception {
        try (FerryServerFixture ferry = new FerryServerFixture(dir)) {
            DefaultMQProducer producer = producer(ferry.nameServer());
            NettyRemotingClient client = new NettyRemotingClient(new NettyClientConfig());
            client.start();
            try {
                SendResult wanted = producer.send(new Message("TopicUniq", "T", "own-key",
                        "wanted".getBytes(StandardCharsets.UTF_8)));
                // Another message whose KEYS happen to be the first one's id: same index key.
                producer.send(new Message("TopicUniq", "T", wanted.getMsgId(),
                        "impostor".getBytes(StandardCharsets.UTF_8)));
                MessageStore store = ferry.server().broker().store();
                await().atMost(Duration.ofSeconds(10)).until(() -> store.dispatchedOffset()
                        >= store.commitLogEndOffset()); // indexed

                MessageExt viewed = producer.viewMessage("TopicUniq", wanted.getMsgId());
                assertThat(new String(viewed.getBody(), StandardCharsets.UTF_8)).isEqualTo("wanted");
                assertThat(viewed.getMsgId()).isEqualTo(wanted.getMsgId());

                String broker = "127.0.0.1:" + ferry.server().brokerPort();
                assertThat(rawQuery(client, broker, wanted.getMsgId(), true)).containsExactly("wanted");
                assertThat(rawQuery(client, broker, wanted.getMsgId(), false))
                        .containsExactlyInAnyOrder("wanted", "impostor");
            } finally {
                ClientShutdowns.together(client::shutdown, producer::shutdown);
            }
        }
    }

    private static List<String> rawQuery(NettyRemotingClient client, String broker, String key, boolean unique)
            throws Exception {
        QueryMessageRequestHeader header = new QueryMessageRequestHeader();
        header.setTopic("TopicUniq");
        header.setKey(key);
        header.setMaxNum(unique ? 1 : 32);
        header.setBeginTimestamp(0L);
        header.setEndTimestamp(Long.MAX_VALUE);
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.QUERY_MESSAGE, header);
        if (unique) {
            request.addExtField("_UNIQUE_KEY_QUERY", "true");
        }
        RemotingCommand response = client.invokeSync(broker, request, 5000);
        assertThat(response.getCode()).isEqualTo(ResponseCode.SUCCESS);
        List<String> bodies = new ArrayList<>();
        for (MessageExt m : MessageDecoder.decodes(java.nio.ByteBuffer.wrap(response.getBody()))) {
            bodies.add(new String(m.getBody(), StandardCharsets.UTF_8));
        }
        return bodies;
    }

    @Test
    void shouldRefuseSendsToUnknownTopicsWhenAutoCreationIsOff() throws Exception {
        FerryServerConfig config = FerryServerConfig.builder(dir).namesrvPort(0).brokerPort(0)
                .commitLogSegmentSize(8 * 1024 * 1024).autoCreateTopics(false).build();
        try (FerryServerFixture ferry = new FerryServerFixture(config)) {
            DefaultMQProducer producer = producer(ferry.nameServer());
            try {
                assertThatThrownBy(() -> producer.send(new Message("NeverCreated", "T", new byte[] {1})))
                        .isInstanceOf(MQClientException.class);
            } finally {
                producer.shutdown();
            }
        }
    }

    @Test
    void shouldListGroupMembersAndTellThemWhenTheGroupChanges() throws Exception {
        try (FerryServerFixture ferry = new FerryServerFixture(dir)) {
            String broker = "127.0.0.1:" + ferry.server().brokerPort();
            BlockingQueue<String> notified = new LinkedBlockingQueue<>();
            NettyRemotingClient first = client(notified);
            NettyRemotingClient second = client(new LinkedBlockingQueue<>());
            try {
                heartbeat(first, broker, "client-1");
                heartbeat(second, broker, "client-2");
                assertThat(notified.poll(10, TimeUnit.SECONDS)).isEqualTo("CG_IDS"); // client-2 joined
                assertThat(consumerIds(first, broker)).containsExactly("client-1", "client-2");
                second.closeChannels(List.of(broker));
                assertThat(notified.poll(10, TimeUnit.SECONDS)).isEqualTo("CG_IDS"); // client-2's connection closed
                await().atMost(Duration.ofSeconds(10)).until(() -> consumerIds(first, broker).size() == 1);
            } finally {
                ClientShutdowns.together(first::shutdown, second::shutdown);
            }
        }
    }

    private static NettyRemotingClient client(BlockingQueue<String> notified) {
        NettyRemotingClient client = new NettyRemotingClient(new NettyClientConfig());
        client.registerProcessor(40, new NettyRequestProcessor() {
            @Override
            public RemotingCommand processRequest(io.netty.channel.ChannelHandlerContext ctx, RemotingCommand request) {
                notified.add(request.getExtFields().get("consumerGroup"));
                return null;
            }

            @Override
            public boolean rejectRequest() {
                return false;
            }
        }, null);
        client.start();
        return client;
    }

    private static void heartbeat(NettyRemotingClient client, String broker, String clientId) throws Exception {
        HeartbeatData heartbeat = new HeartbeatData();
        heartbeat.setClientID(clientId);
        ConsumerData consumer = new ConsumerData();
        consumer.setGroupName("CG_IDS");
        consumer.setConsumeType(ConsumeType.CONSUME_PASSIVELY);
        consumer.setMessageModel(MessageModel.CLUSTERING);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET);
        heartbeat.getConsumerDataSet().add(consumer);
        RemotingCommand request = RemotingCommand.createRequestCommand(34, null);
        request.setBody(heartbeat.encode());
        assertThat(client.invokeSync(broker, request, 5000).getCode()).isEqualTo(ResponseCode.SUCCESS);
    }

    private static List<String> consumerIds(NettyRemotingClient client, String broker) throws Exception {
        GetConsumerListByGroupRequestHeader header = new GetConsumerListByGroupRequestHeader();
        header.setConsumerGroup("CG_IDS");
        RemotingCommand response = client.invokeSync(broker, RemotingCommand.createRequestCommand(38, header), 5000);
        if (response.getCode() != ResponseCode.SUCCESS) {
            return List.of();
        }
        return RemotingSerializable.decode(response.getBody(), GetConsumerListByGroupResponseBody.class)
                .getConsumerIdList();
    }
}
