package dev.ferry.server.apache;

import static org.awaitility.Awaitility.await;

import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.testing.ClientShutdowns;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.header.PullMessageRequestHeader;
import org.apache.rocketmq.remoting.protocol.heartbeat.ConsumeType;
import org.apache.rocketmq.remoting.protocol.heartbeat.ConsumerData;
import org.apache.rocketmq.remoting.protocol.heartbeat.HeartbeatData;
import org.apache.rocketmq.remoting.protocol.heartbeat.MessageModel;

/** Apache clients for one test against one name server, shut down together when the test ends. */
final class ApacheClients implements AutoCloseable {
    private final String nameServer;
    private final List<Runnable> shutdowns = new ArrayList<>();

    ApacheClients(String nameServer) {
        this.nameServer = nameServer;
    }

    /** A started Apache admin client (what mqadmin runs) of {@code nameServer}; shut it down after use. */
    static org.apache.rocketmq.tools.admin.DefaultMQAdminExt admin(String nameServer) throws Exception {
        org.apache.rocketmq.tools.admin.DefaultMQAdminExt admin =
                new org.apache.rocketmq.tools.admin.DefaultMQAdminExt();
        admin.setNamesrvAddr(nameServer);
        admin.setInstanceName("admin" + System.nanoTime());
        admin.start();
        return admin;
    }

    /** A started producer of {@code group}. */
    DefaultMQProducer producer(String group) throws Exception {
        return started(new DefaultMQProducer(group));
    }

    /** Configures and starts a producer (also a transactional one); it is shut down with the others. */
    <P extends DefaultMQProducer> P started(P producer) throws Exception {
        producer.setNamesrvAddr(nameServer);
        producer.setInstanceName(producer.getProducerGroup() + System.nanoTime());
        producer.start();
        shutdowns.add(producer::shutdown);
        return producer;
    }

    /** Runs {@code shutdown} when these clients close, alongside the others' shutdowns. */
    void onClose(Runnable shutdown) {
        shutdowns.add(shutdown);
    }

    /** A push consumer of {@code group} reading from the first offset; subscribe, listen, then {@link #start}. */
    DefaultMQPushConsumer pushConsumer(String group) {
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group);
        consumer.setNamesrvAddr(nameServer);
        consumer.setInstanceName(group + System.nanoTime());
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        // After a rebalance the client raises its subscription version and heartbeats, unless a
        // heartbeat is already under way: then the broker learns the version only from the next
        // periodic one (30 s by default) and answers pulls SUBSCRIPTION_NOT_LATEST until then.
        consumer.setHeartbeatBrokerInterval(1000);
        return consumer;
    }

    DefaultMQPushConsumer start(DefaultMQPushConsumer consumer) throws Exception {
        consumer.start();
        shutdowns.add(consumer::shutdown);
        return consumer;
    }

    /**
     * Makes {@code group} known to the broker (a consumer heartbeat, which creates its retry topic)
     * and waits until the name server routes the retry topic. A push consumer reads routes when it
     * starts, before its first heartbeat, and then only every 30 s: without this a new group's first
     * retry would wait for that poll.
     */
    static void announceGroup(FerryServerFixture ferry, String group) throws Exception {
        NettyRemotingClient client = new NettyRemotingClient(new NettyClientConfig());
        client.start();
        try {
            HeartbeatData heartbeat = new HeartbeatData();
            heartbeat.setClientID("announce-" + group);
            ConsumerData consumer = new ConsumerData();
            consumer.setGroupName(group);
            consumer.setConsumeType(ConsumeType.CONSUME_PASSIVELY);
            consumer.setMessageModel(MessageModel.CLUSTERING);
            consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
            heartbeat.getConsumerDataSet().add(consumer);
            RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.HEART_BEAT, null);
            request.setBody(heartbeat.encode());
            client.invokeSync("127.0.0.1:" + ferry.server().brokerPort(), request, 5000);
        } finally {
            client.shutdown();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> ferry.server().nameServer().routes()
                .route("%RETRY%" + group) != null);
    }

    /** A one-off pull of queue 0 from offset 0 naming its own subscription, without long polling. */
    static PullMessageRequestHeader rawPull(String group, String topic, String expressionType, String expression) {
        PullMessageRequestHeader h = new PullMessageRequestHeader();
        h.setConsumerGroup(group);
        h.setTopic(topic);
        h.setQueueId(0);
        h.setQueueOffset(0L);
        h.setMaxMsgNums(32);
        h.setSysFlag(1 << 2); // subscription included, no suspend
        h.setCommitOffset(0L);
        h.setSuspendTimeoutMillis(0L);
        h.setSubVersion(0L);
        h.setExpressionType(expressionType);
        h.setSubscription(expression);
        return h;
    }

    /** Shuts every client down at once (each waits about 3 s) and returns when all are down. */
    @Override
    public void close() {
        try {
            ClientShutdowns.together(List.copyOf(shutdowns));
        } finally {
            shutdowns.clear();
        }
    }
}
