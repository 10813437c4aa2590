package dev.ferry.bench.server;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeOrderlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerOrderly;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.body.LockBatchRequestBody;
import org.apache.rocketmq.remoting.protocol.heartbeat.ConsumeType;
import org.apache.rocketmq.remoting.protocol.heartbeat.ConsumerData;
import org.apache.rocketmq.remoting.protocol.heartbeat.HeartbeatData;
import org.apache.rocketmq.remoting.protocol.heartbeat.MessageModel;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * How soon a new orderly consumer group gets its first message, against ferry-server and Apache RocketMQ 5.3.3 (each
 * in a child JVM, Apache's client as the load): the round trip of the queue lock an orderly consumer takes before its
 * first pull (LOCK_BATCH_MQ of four queues, Apache's remoting client, one at a time), and the time from an orderly push
 * consumer's start to its first message on a young topic (a new group, CONSUME_FROM_LAST_OFFSET: both brokers start it
 * at the queue's first message).
 *
 * <pre>java -cp engine/benchmarks/target/benchmarks.jar dev.ferry.bench.server.OrderlyStart</pre>
 */
@Command(name = "orderly-start", mixinStandardHelpOptions = true,
        description = "Queue-lock round trip and first orderly delivery, Ferry beside Apache RocketMQ.")
public final class OrderlyStart implements Callable<Integer> {
    @Option(names = "--work-dir", description = "Scratch directory.")
    Path workDir = Path.of(System.getProperty("java.io.tmpdir"), "ferry-orderly-start");

    @Option(names = "--locks", description = "Measured lock round trips per broker (after as many unmeasured).")
    int locks = 5000;

    @Option(names = "--consumers", description = "Orderly consumers started per broker, one after another.")
    int consumers = 10;

    public static void main(String[] args) {
        System.exit(new CommandLine(new OrderlyStart()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Map<String, Map<String, Double>> figures = new LinkedHashMap<>();
        for (String which : List.of("ferry", "apache")) {
            figures.put(which, measure(which));
        }
        System.out.printf(Locale.ROOT, "%-44s %12s %12s %8s%n", "", "ferry", "apache", "ratio");
        figures.get("ferry").forEach((key, ferry) -> {
            double apache = figures.get("apache").get(key);
            System.out.printf(Locale.ROOT, "%-44s %12.1f %12.1f %8.2f%n", key, ferry, apache, ferry / apache);
        });
        return 0;
    }

    private Map<String, Double> measure(String which) throws Exception {
        int[] ports = SideBySide.freePorts();
        Path dir = workDir.resolve(which + System.nanoTime());
        Files.createDirectories(dir);
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-Xms1g", "-Xmx1g", "-cp",
                System.getProperty("java.class.path")));
        if (which.equals("ferry")) {
            command.addAll(List.of("dev.ferry.server.cli.FerryServerCommand", "--namesrv-port", ports[0] + "",
                    "--broker-port", ports[1] + "", "--store-dir", dir.resolve("store").toString()));
        } else {
            command.add(3, "-Duser.home=" + dir);
            command.addAll(List.of(ApachePeerMain.class.getName(), ports[0] + "", ports[1] + "", ports[2] + "",
                    dir.toString(), Integer.toString(64 << 20)));
        }
        Map<String, Double> figures = new LinkedHashMap<>();
        try (ServerProcess server = ServerProcess.start(which, "127.0.0.1:" + ports[0], command, dir)) {
            new ClientLoad(server.nameServer, "B" + which).timeToReadyMillis(server);
            Histogram lock = lockRoundTrips(server.nameServer, "127.0.0.1:" + ports[1]);
            figures.put("lock round trip p50 (us)", (double) lock.getValueAtPercentile(50));
            figures.put("lock round trip p99 (us)", (double) lock.getValueAtPercentile(99));
            Histogram first = firstDeliveries(server.nameServer);
            figures.put("start to first orderly message p50 (ms)", (double) first.getValueAtPercentile(50));
            figures.put("start to first orderly message max (ms)", (double) first.getMaxValue());
        }
        System.out.println("== " + which + ": " + figures);
        return figures;
    }

    /** Round trips of LOCK_BATCH_MQ for four queues of a topic the broker has, in microseconds. */
    private Histogram lockRoundTrips(String nameServer, String broker) throws Exception {
        DefaultMQProducer producer = producer(nameServer, "PG_LOCK");
        for (int i = 0; i < 4; i++) {
            producer.send(new Message("BLockTopic", new byte[16]), new MessageQueue("BLockTopic", "broker-a", i));
        }
        producer.shutdown();
        NettyRemotingClient client = new NettyRemotingClient(new NettyClientConfig());
        client.start();
        try {
            HeartbeatData heartbeat = new HeartbeatData();
            heartbeat.setClientID("lock-bench");
            ConsumerData consumer = new ConsumerData();
            consumer.setGroupName("CG_LOCK");
            consumer.setConsumeType(ConsumeType.CONSUME_PASSIVELY);
            consumer.setMessageModel(MessageModel.CLUSTERING);
            consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET);
            heartbeat.getConsumerDataSet().add(consumer);
            RemotingCommand beat = RemotingCommand.createRequestCommand(RequestCode.HEART_BEAT, null);
            beat.setBody(heartbeat.encode());
            client.invokeSync(broker, beat, 5000);
            LockBatchRequestBody body = new LockBatchRequestBody();
            body.setConsumerGroup("CG_LOCK");
            body.setClientId("lock-bench");
            body.setMqSet(Set.of(new MessageQueue("BLockTopic", "broker-a", 0),
                    new MessageQueue("BLockTopic", "broker-a", 1), new MessageQueue("BLockTopic", "broker-a", 2),
                    new MessageQueue("BLockTopic", "broker-a", 3)));
            byte[] encoded = body.encode();
            Histogram micros = new Histogram(TimeUnit.SECONDS.toMicros(10), 3);
            for (int i = 0; i < 2 * locks; i++) {
                RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.LOCK_BATCH_MQ, null);
                request.setBody(encoded);
                long start = System.nanoTime();
                RemotingCommand response = client.invokeSync(broker, request, 5000);
                long took = System.nanoTime() - start;
                if (response.getCode() != ResponseCode.SUCCESS) {
                    throw new IllegalStateException("LOCK_BATCH_MQ answered " + response.getCode() + ": "
                            + response.getRemark());
                }
                if (i >= locks) {
                    micros.recordValue(Math.min(TimeUnit.NANOSECONDS.toMicros(took), micros.getHighestTrackableValue()));
                }
            }
            return micros;
        } finally {
            client.shutdown();
        }
    }

    /** Milliseconds from an orderly consumer's start to its first message, each a new group on a young topic. */
    private Histogram firstDeliveries(String nameServer) throws Exception {
        Histogram millis = new Histogram(TimeUnit.MINUTES.toMillis(2), 3);
        DefaultMQProducer producer = producer(nameServer, "PG_ORDERLY");
        try {
            for (int round = 0; round < consumers; round++) {
                String topic = "BOrderly" + round;
                for (int i = 0; i < 8; i++) {
                    producer.send(new Message(topic, ("m" + i).getBytes(StandardCharsets.UTF_8)));
                }
                CountDownLatch first = new CountDownLatch(1);
                DefaultMQPushConsumer consumer = new DefaultMQPushConsumer("CG_ORDERLY_" + round);
                consumer.setNamesrvAddr(nameServer);
                consumer.setInstanceName("orderly" + round + System.nanoTime());
                consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET);
                consumer.subscribe(topic, "*");
                consumer.registerMessageListener((MessageListenerOrderly) (messages, context) -> {
                    first.countDown();
                    return ConsumeOrderlyStatus.SUCCESS;
                });
                long start = System.nanoTime();
                consumer.start();
                try {
                    if (!first.await(60, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("no message within 60 s of an orderly consumer's start");
                    }
                    millis.recordValue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
                } finally {
                    consumer.shutdown();
                }
            }
            return millis;
        } finally {
            producer.shutdown();
        }
    }

    private static DefaultMQProducer producer(String nameServer, String group) throws Exception {
        DefaultMQProducer producer = new DefaultMQProducer(group);
        producer.setNamesrvAddr(nameServer);
        producer.setInstanceName(group + System.nanoTime());
        producer.start();
        return producer;
    }
}
