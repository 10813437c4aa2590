package dev.ferry.bench.faults;

import dev.ferry.api.Message;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.api.SendResult;
import dev.ferry.api.SendStatus;
import dev.ferry.client.ClientConfig;
import dev.ferry.client.ConsumeFromWhere;
import dev.ferry.client.FerryClient;
import dev.ferry.client.Producer;
import dev.ferry.client.ProducerConfig;
import dev.ferry.client.PushConsumer;
import dev.ferry.client.PushConsumerConfig;
import dev.ferry.client.TransactionSendResult;
import dev.ferry.client.TransactionState;
import dev.ferry.remoting.RemotingConnectException;
import dev.ferry.remoting.RemotingTooManyRequestsException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.ConsumeOrderlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.consumer.listener.MessageListenerOrderly;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * A client process of a fault run: {@code producer KIND NAMESRV HISTORY NAME} or {@code consumer KIND NAMESRV HISTORY
 * NAME}, KIND {@code apache} (Apache RocketMQ 5.3.3's client) or {@code ferry} (Ferry's). Writes every operation to
 * its history file before acting on it, prints {@code fault client ready} once it runs, and stops cleanly on SIGTERM; a
 * producer stops sending once its {@link #stopFile stop file} exists.
 *
 * <p>A producer runs four streams, each sending synchronously without retries (the harness counts every attempt):
 * plain messages ({@value #PLAIN}), ordered ones ({@value #ORDER}, eight order keys, each numbered), delayed and timer
 * messages ({@value #TIMED}, due 1 to 5 s later) and transactional ones ({@value #TX}: commit, rollback, or unknown and
 * then commit or rollback when the broker asks). A consumer runs a concurrent group on the plain, timed and
 * transactional topics and an orderly group on the ordered one.
 */
public final class FaultClient {
    static final String PLAIN = "ChaosPlain";
    static final String ORDER = "ChaosOrder";
    static final String TIMED = "ChaosTimed";
    static final String TX = "ChaosTx";
    static final List<String> TOPICS = List.of(PLAIN, ORDER, TIMED, TX);
    static final int ORDER_KEYS = 8;
    private static final Duration SEND_TIMEOUT = Duration.ofSeconds(3);

    private final String kind;
    private final String nameServers;
    private final String name;
    private final HistoryLog history;
    private final Path stopSending;
    private volatile boolean running = true;
    private final List<Thread> streams = new ArrayList<>();
    private final List<AutoCloseable> closing = new ArrayList<>();

    private FaultClient(String kind, String nameServers, String name, Path historyFile) throws java.io.IOException {
        this.kind = kind;
        this.nameServers = nameServers;
        this.name = name;
        this.history = new HistoryLog(historyFile);
        this.stopSending = stopFile(historyFile);
    }

    /**
     * The file whose existence tells a producer to stop sending while it goes on answering the brokers' transaction
     * checks: its last transactions are decided only when asked.
     */
    static Path stopFile(Path historyFile) {
        return historyFile.resolveSibling(historyFile.getFileName() + ".stop");
    }

    public static void main(String[] args) throws Exception {
        FaultClient client = new FaultClient(args[1], args[2], args[4], Path.of(args[3]));
        client.log("start", "-", "-", Map.of());
        Runtime.getRuntime().addShutdownHook(new Thread(client::stop, "fault-client-stop"));
        if (args[0].equals("producer")) {
            client.startProducer();
        } else {
            client.startConsumer();
        }
        System.out.println("fault client ready: " + args[0] + " " + args[1]);
        System.out.flush();
        Thread.currentThread().join();
    }

    private void log(String type, String key, String topic, Map<String, String> attrs) {
        history.write(Op.of(System.currentTimeMillis(), name, type, key, topic, attrs));
    }

    private void log(String type, String key, String topic, String broker, int queue, long offset,
                     Map<String, String> attrs) {
        history.write(new Op(System.currentTimeMillis(), name, type, key, topic, broker, queue, offset, attrs));
    }

    private void stop() {
        running = false;
        for (Thread stream : streams) {
            try {
                stream.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (AutoCloseable c : closing) {
            try {
                c.close();
            } catch (Exception e) {
                // stopping anyway
            }
        }
        log("stop", "-", "-", Map.of());
    }

    // ---- producing

    /** One message a stream sends: its topic, key, what the checker needs and how to send it. */
    private record Planned(String topic, String key, Map<String, String> attrs, int delayLevel, long deliverAt,
                           String orderKey, String decision) {
    }

    /** Sends one planned message and returns its outcome. */
    private interface Sender {
        Outcome send(Planned planned) throws Exception;
    }

    /** An acknowledged send: where it was stored. */
    private record Outcome(boolean ok, String status, String broker, int queue, long offset) {
    }

    private void startProducer() throws Exception {
        Sender sender = kind.equals("apache") ? apacheSender() : ferrySender();
        stream("plain", 25, seq -> new Planned(PLAIN, key("plain", seq), Map.of(), 0, 0, null, null), sender);
        stream("order", 50, seq -> {
            String orderKey = "k" + (seq % ORDER_KEYS);
            return new Planned(ORDER, key("order", seq), Map.of("order", orderKey,
                    "seq", Long.toString(seq / ORDER_KEYS)), 0, 0, orderKey, null);
        }, sender);
        stream("timed", 200, seq -> {
            long now = System.currentTimeMillis();
            return switch ((int) (seq % 3)) {
                case 0 -> new Planned(TIMED, key("timed", seq), Map.of("due", Long.toString(now + 1000),
                        "level", "1"), 1, 0, null, null);
                case 1 -> new Planned(TIMED, key("timed", seq), Map.of("due", Long.toString(now + 5000),
                        "level", "2"), 2, 0, null, null);
                default -> {
                    long at = now + 2000 + (seq % 4) * 1000;
                    yield new Planned(TIMED, key("timed", seq), Map.of("due", Long.toString(at), "timer", "true"),
                            0, at, null, null);
                }
            };
        }, sender);
        stream("tx", 200, seq -> new Planned(TX, key("tx", seq), Map.of("decision", finalDecision(seq)), 0, 0, null,
                firstDecision(seq)), sender);
    }

    private String key(String stream, long seq) {
        return name + "-" + stream + "-" + seq;
    }

    /** What the transaction of sequence {@code seq} ends with: commit for 0 and 2, rollback for 1 and 3 (mod 4). */
    static String finalDecision(long seq) {
        return seq % 2 == 0 ? "commit" : "rollback";
    }

    /** What the local transaction answers at once: the final decision for 0 and 1, unknown (ask later) else. */
    static String firstDecision(long seq) {
        return seq % 4 < 2 ? finalDecision(seq) : "unknown";
    }

    private static long seqOf(String key) {
        return Long.parseLong(key.substring(key.lastIndexOf('-') + 1));
    }

    private void stream(String stream, long periodMillis, java.util.function.LongFunction<Planned> plan,
                        Sender sender) {
        Thread thread = new Thread(() -> {
            long next = System.nanoTime();
            for (long seq = 0; running && !java.nio.file.Files.exists(stopSending); seq++) {
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait); // pacing the stream, not a test's wait
                }
                next = Math.max(next + TimeUnit.MILLISECONDS.toNanos(periodMillis), System.nanoTime());
                Planned planned = plan.apply(seq);
                log("invoke", planned.key(), planned.topic(), planned.attrs());
                try {
                    Outcome outcome = sender.send(planned);
                    Map<String, String> attrs = new HashMap<>(planned.attrs());
                    attrs.put("status", outcome.status());
                    log(outcome.ok() ? "ok" : "unknown", planned.key(), planned.topic(), outcome.broker(),
                            outcome.queue(), outcome.offset(), attrs);
                } catch (Exception e) {
                    Map<String, String> attrs = new HashMap<>(planned.attrs());
                    attrs.put("error", e.getClass().getSimpleName());
                    log(definitelyNotSent(e) ? "fail" : "unknown", planned.key(), planned.topic(), attrs);
                }
            }
        }, "stream-" + stream);
        streams.add(thread);
        thread.start();
    }

    /**
     * Whether a failed send surely stored nothing: the broker answered with an error, or no connection was made. A
     * timeout or a connection lost after the request left may have stored it: unknown.
     */
    static boolean definitelyNotSent(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof MQBrokerException || cause instanceof dev.ferry.api.BrokerException
                    || cause instanceof org.apache.rocketmq.remoting.exception.RemotingConnectException
                    || cause instanceof org.apache.rocketmq.remoting.exception.RemotingTooMuchRequestException
                    || cause instanceof RemotingConnectException || cause instanceof RemotingTooManyRequestsException) {
                return true;
            }
        }
        return false;
    }

    private Sender apacheSender() throws Exception {
        DefaultMQProducer producer = new DefaultMQProducer(name + "-group");
        producer.setNamesrvAddr(nameServers);
        producer.setInstanceName(name);
        producer.setSendMsgTimeout((int) SEND_TIMEOUT.toMillis());
        producer.setRetryTimesWhenSendFailed(0);
        producer.start();
        closing.add(producer::shutdown);
        TransactionMQProducer transactional = new TransactionMQProducer(name + "-tx");
        transactional.setNamesrvAddr(nameServers);
        transactional.setInstanceName(name + "-tx");
        transactional.setSendMsgTimeout((int) SEND_TIMEOUT.toMillis());
        transactional.setRetryTimesWhenSendFailed(0);
        transactional.setTransactionListener(new TransactionListener() {
            @Override
            public LocalTransactionState executeLocalTransaction(org.apache.rocketmq.common.message.Message msg,
                                                                 Object arg) {
                return apacheState((String) arg);
            }

            @Override
            public LocalTransactionState checkLocalTransaction(MessageExt msg) {
                log("check", msg.getKeys(), msg.getTopic(), Map.of());
                return apacheState(finalDecision(seqOf(msg.getKeys())));
            }
        });
        transactional.start();
        closing.add(transactional::shutdown);
        return planned -> {
            org.apache.rocketmq.common.message.Message message = new org.apache.rocketmq.common.message.Message(
                    planned.topic(), planned.key().getBytes(StandardCharsets.UTF_8));
            message.setKeys(planned.key());
            if (planned.delayLevel() > 0) {
                message.setDelayTimeLevel(planned.delayLevel());
            }
            if (planned.deliverAt() > 0) {
                message.setDeliverTimeMs(planned.deliverAt());
            }
            org.apache.rocketmq.client.producer.SendResult result;
            if (planned.decision() != null) {
                result = transactional.sendMessageInTransaction(message, planned.decision());
            } else if (planned.orderKey() != null) {
                result = producer.send(message, (queues, msg, arg) ->
                        queues.get(Math.floorMod(arg.hashCode(), queues.size())), planned.orderKey());
            } else {
                result = producer.send(message);
            }
            return new Outcome(result.getSendStatus() == org.apache.rocketmq.client.producer.SendStatus.SEND_OK,
                    result.getSendStatus().name(), result.getMessageQueue().getBrokerName(),
                    result.getMessageQueue().getQueueId(), result.getQueueOffset());
        };
    }

    private static LocalTransactionState apacheState(String decision) {
        return switch (decision) {
            case "commit" -> LocalTransactionState.COMMIT_MESSAGE;
            case "rollback" -> LocalTransactionState.ROLLBACK_MESSAGE;
            default -> LocalTransactionState.UNKNOW;
        };
    }

    private static TransactionState ferryState(String decision) {
        return switch (decision) {
            case "commit" -> TransactionState.COMMIT;
            case "rollback" -> TransactionState.ROLLBACK;
            default -> TransactionState.UNKNOWN;
        };
    }

    private Sender ferrySender() {
        FerryClient client = new FerryClient(ClientConfig.builder(nameServers.split(";")).instanceName(name)
                .build());
        closing.add(client);
        ProducerConfig config = ProducerConfig.builder(name + "-group").sendTimeout(SEND_TIMEOUT)
                .retriesWhenSendFailed(0).build();
        Producer producer = client.producer(config);
        Producer transactional = client.producer(ProducerConfig.builder(name + "-tx").sendTimeout(SEND_TIMEOUT)
                .retriesWhenSendFailed(0).build(), message -> {
                    String key = message.keys().get(0);
                    log("check", key, message.topic(), Map.of());
                    return ferryState(finalDecision(seqOf(key)));
                });
        return planned -> {
            Message.Builder builder = Message.builder(planned.topic())
                    .body(planned.key().getBytes(StandardCharsets.UTF_8)).keys(planned.key());
            if (planned.delayLevel() > 0) {
                builder.delayLevel(planned.delayLevel());
            }
            if (planned.deliverAt() > 0) {
                builder.deliverAt(java.time.Instant.ofEpochMilli(planned.deliverAt()));
            }
            Message message = builder.build();
            SendResult result;
            if (planned.decision() != null) {
                TransactionSendResult sent = transactional.sendInTransaction(message,
                        m -> ferryState(planned.decision()));
                result = sent.sendResult();
            } else if (planned.orderKey() != null) {
                result = producer.send(message, planned.orderKey());
            } else {
                result = producer.send(message);
            }
            return new Outcome(result.status() == SendStatus.SEND_OK, result.status().name(),
                    result.messageQueue().brokerName(), result.queueId(), result.queueOffset());
        };
    }

    // ---- consuming

    private void startConsumer() throws Exception {
        if (kind.equals("apache")) {
            DefaultMQPushConsumer plain = new DefaultMQPushConsumer("apache-plain");
            plain.setNamesrvAddr(nameServers);
            plain.setInstanceName(name);
            plain.setConsumeFromWhere(org.apache.rocketmq.common.consumer.ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
            for (String topic : List.of(PLAIN, TIMED, TX)) {
                plain.subscribe(topic, "*");
            }
            plain.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
                messages.forEach(m -> received(m, "apache-plain"));
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
            plain.start();
            closing.add(plain::shutdown);
            DefaultMQPushConsumer order = new DefaultMQPushConsumer("apache-order");
            order.setNamesrvAddr(nameServers);
            order.setInstanceName(name);
            order.setConsumeFromWhere(org.apache.rocketmq.common.consumer.ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
            order.subscribe(ORDER, "*");
            order.registerMessageListener((MessageListenerOrderly) (messages, context) -> {
                messages.forEach(m -> received(m, "apache-order"));
                return ConsumeOrderlyStatus.SUCCESS;
            });
            order.start();
            closing.add(order::shutdown);
        } else {
            FerryClient client = new FerryClient(ClientConfig.builder(nameServers.split(";")).instanceName(name)
                    .build());
            closing.add(client);
            PushConsumerConfig.Builder plain = PushConsumerConfig.builder("ferry-plain")
                    .consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET);
            for (String topic : List.of(PLAIN, TIMED, TX)) {
                plain.subscribe(topic, "*");
            }
            PushConsumer plainConsumer = client.pushConsumer(plain.build(), m -> received(m, "ferry-plain"));
            closing.add(0, plainConsumer);
            PushConsumer orderConsumer = client.pushConsumer(PushConsumerConfig.builder("ferry-order")
                    .subscribe(ORDER, "*").consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).consumeOrderly(true)
                    .build(), m -> received(m, "ferry-order"));
            closing.add(0, orderConsumer);
        }
    }

    private void received(MessageExt message, String group) {
        log("recv", message.getKeys(), message.getTopic(), message.getBrokerName(), message.getQueueId(),
                message.getQueueOffset(), Map.of("group", group, "reconsume",
                        Integer.toString(message.getReconsumeTimes())));
    }

    private void received(ReceivedMessage message, String group) {
        log("recv", message.keys().isEmpty() ? "-" : message.keys().get(0), message.topic(), message.brokerName(),
                message.queueId(), message.queueOffset(), Map.of("group", group, "reconsume",
                        Integer.toString(message.reconsumeTimes())));
    }
}
