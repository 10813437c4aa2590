package dev.ferry.server.apache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.format.Clock;
import dev.ferry.format.NameRules;
import dev.ferry.format.SystemTopics;
import dev.ferry.format.RoundBudget;
import dev.ferry.remoting.RemotingClientConfig;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RemotingConnectException;
import dev.ferry.remoting.RemotingConnectionLostException;
import dev.ferry.remoting.RemotingSendException;
import dev.ferry.remoting.RemotingTimeoutException;
import dev.ferry.remoting.endpoint.RemotingClient;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.body.CompressedRegistration;
import dev.ferry.remoting.protocol.body.DataVersion;
import dev.ferry.remoting.protocol.body.RegisterBrokerBody;
import dev.ferry.remoting.protocol.body.TopicConfig;
import dev.ferry.remoting.protocol.body.TopicConfigSerializeWrapper;
import dev.ferry.server.FerryServer;
import dev.ferry.server.FerryServerConfig;
import dev.ferry.store.GetMessageResult;
import dev.ferry.store.GetMessageStatus;
import dev.ferry.store.MessageFilterPredicate;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.MessageSelector;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.ConsumeOrderlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.consumer.listener.MessageListenerOrderly;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Request-level fuzzing: real Apache-client traffic (producers, transactions, push, orderly, lite-pull and SQL92
 * consumers, lookups, registrations, the name server's key-value codes) is recorded, then replayed mutated to the broker and the name server for a fixed
 * budget (25,000 requests, 100,000 with the long test budget; {@code -Dferry.fuzz.requests=N} and {@code -Dferry.fuzz.seed=S} for
 * longer or other runs). Afterwards: no request timed out or made a processor fail; a request goes unanswered only
 * when its connection was closed because a request sent with it could not be decoded (a header beyond the parser's
 * limits), and no more than were in flight then; the server still serves, it kept only valid names, and after a
 * restart every message and offset written before the fuzzing is there.
 */
@Tag("integration")
class RequestFuzzTest {
    private static final int REQUESTS = RoundBudget.rounds(25_000, 100_000);
    private static final int IN_FLIGHT = 128;
    private static final String BEFORE_TOPIC = "TopicWrittenBeforeFuzzing";
    private static final String BEFORE_GROUP = "CG_WRITTEN_BEFORE_FUZZING";
    private static final int BEFORE_MESSAGES = 40;

    @TempDir
    Path dir;

    private FerryServer server(FerryServerConfig config) {
        return new FerryServer(config, Clock.system(), new DefaultThreadFactory("fuzz", true)).start();
    }

    @Test
    void shouldSurviveMutatedApacheTrafficAndKeepEverythingWrittenBefore() throws Exception {
        long requests = Long.getLong("ferry.fuzz.requests", REQUESTS);
        long seed = Long.getLong("ferry.fuzz.seed", 20261201L);
        FerryServerConfig config = FerryServerConfig.builder(dir.resolve("ferry")).namesrvPort(0).brokerPort(0)
                .commitLogSegmentSize(64 << 20).build();
        Map<Integer, Long> committed;
        Map<Integer, Long> answers = new TreeMap<>();
        try (FerryServer server = server(config)) {
            String namesrv = server.nameServerAddress();
            String broker = "127.0.0.1:" + server.brokerPort();
            committed = writeBeforeFuzzing(server);
            List<ApacheTraffic.Request> seeds = recordApacheTraffic(namesrv, broker);
            assertThat(seeds.stream().map(ApacheTraffic.Request::code).distinct().count())
                    .as("codes seen in the recorded traffic").isGreaterThanOrEqualTo(20);

            long started = System.nanoTime();
            Unanswered unanswered = fuzz(new RequestMutator(seed, seeds), requests, broker, namesrv, answers);
            long seconds = Math.max(1, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
            long malformed = server.broker().stats().health().malformedFrames() + server.nameServer().malformedFrames();
            System.out.printf("fuzzed %d requests (seed %d) in %d s, %d/s; answers by code: %s; connections closed "
                    + "for a malformed frame: %d, requests lost with them: %d%n", requests, seed, seconds,
                    requests / seconds, answers, malformed, unanswered.connectionLost());

            assertThat(unanswered.timedOut()).as("requests that timed out").isZero();
            assertThat(unanswered.otherwise()).as("requests that failed otherwise").isZero();
            assertThat(unanswered.connectionLost()).as("requests lost with connections closed for a malformed frame")
                    .isLessThanOrEqualTo(malformed * IN_FLIGHT);
            assertThat(server.broker().stats().health().processorFailures()).as("broker processor failures")
                    .isZero();
            assertThat(server.nameServer().processorFailures()).as("name server processor failures").isZero();
            assertThat(server.broker().store().backgroundFailures()).isZero();
            assertThat(server.broker().store().dispatchFailures()).isZero();
            assertStillServes(broker);
        }
        assertOnlyValidNamesKept(dir.resolve("ferry"));

        try (FerryServer restarted = server(config)) {
            GetMessageResult before = restarted.broker().store().getMessages(BEFORE_TOPIC, 0, 0, BEFORE_MESSAGES * 2,
                    16 << 20, MessageFilterPredicate.ALL);
            assertThat(before.status()).isEqualTo(GetMessageStatus.FOUND);
            assertThat(before.views()).hasSize(BEFORE_MESSAGES);
            for (int i = 0; i < BEFORE_MESSAGES; i++) {
                assertThat(new String(before.views().get(i).bodyBytes(), StandardCharsets.UTF_8))
                        .isEqualTo("before-" + i);
            }
            RemotingClient client = new RemotingClient(RemotingClientConfig.builder().build());
            try {
                String broker = "127.0.0.1:" + restarted.brokerPort();
                for (Map.Entry<Integer, Long> queue : committed.entrySet()) {
                    RemotingCommand offset = client.invokeSync(broker, RemotingCommand.request(14)
                            .extField("consumerGroup", BEFORE_GROUP).extField("topic", BEFORE_TOPIC)
                            .extField("queueId", Integer.toString(queue.getKey())).build(), Duration.ofSeconds(5));
                    assertThat(offset.code()).isEqualTo(ResponseCode.SUCCESS);
                    assertThat(offset.extField("offset")).isEqualTo(Long.toString(queue.getValue()));
                }
            } finally {
                client.close();
            }
        }
    }

    /** Messages and committed offsets the fuzzing must not touch: names it never uses. */
    private static Map<Integer, Long> writeBeforeFuzzing(FerryServer server) {
        Map<Integer, Long> committed = new TreeMap<>();
        try (RemotingClient client = new RemotingClient(RemotingClientConfig.builder().build())) {
            String broker = "127.0.0.1:" + server.brokerPort();
            for (int i = 0; i < BEFORE_MESSAGES; i++) {
                RemotingCommand send = RemotingCommand.request(310).extField("a", "PG_BEFORE")
                        .extField("b", BEFORE_TOPIC).extField("c", "TBW102").extField("d", "4").extField("e", "0")
                        .extField("f", "0").extField("g", "0").extField("h", "0").extField("i", "")
                        .body(("before-" + i).getBytes(StandardCharsets.UTF_8)).build();
                assertThat(client.invokeSync(broker, send, Duration.ofSeconds(5)).code())
                        .isEqualTo(ResponseCode.SUCCESS);
            }
            RemotingCommand pull = RemotingCommand.request(11).extField("consumerGroup", BEFORE_GROUP)
                    .extField("topic", BEFORE_TOPIC).extField("queueId", "0").extField("queueOffset", "0")
                    .extField("maxMsgNums", "1").extField("sysFlag", "4").extField("commitOffset", "0")
                    .extField("suspendTimeoutMillis", "0").extField("subVersion", "0").extField("subscription", "*")
                    .extField("expressionType", "TAG").build();
            client.invokeSync(broker, pull, Duration.ofSeconds(5)); // the group becomes known
            for (int queueId = 0; queueId < 4; queueId++) {
                long offset = 3L + queueId;
                RemotingCommand commit = RemotingCommand.request(15).extField("consumerGroup", BEFORE_GROUP)
                        .extField("topic", BEFORE_TOPIC).extField("queueId", Integer.toString(queueId))
                        .extField("commitOffset", Long.toString(offset)).build();
                assertThat(client.invokeSync(broker, commit, Duration.ofSeconds(5)).code())
                        .isEqualTo(ResponseCode.SUCCESS);
                committed.put(queueId, offset);
            }
        }
        return committed;
    }

    /** Runs real Apache clients through every flow, recording what they send (the lookups Apache deprecated too). */
    @SuppressWarnings("deprecation")
    private static List<ApacheTraffic.Request> recordApacheTraffic(String namesrv, String broker) throws Exception {
        ApacheTraffic traffic = new ApacheTraffic();
        List<Runnable> shutdowns = new ArrayList<>();
        try {
            DefaultMQProducer producer = new DefaultMQProducer("PG_FUZZ", traffic);
            start(producer, namesrv, shutdowns);
            SendResult sent = producer.send(new Message("TopicFuzz", "TagA", "key-1",
                    "one".getBytes(StandardCharsets.UTF_8)));
            Message delayed = new Message("TopicFuzz", "TagB", "key-2", "delayed".getBytes(StandardCharsets.UTF_8));
            delayed.setDelayTimeLevel(1);
            delayed.putUserProperty("a", "1");
            producer.send(delayed);
            producer.send(List.of(new Message("TopicFuzz", "batch-1".getBytes(StandardCharsets.UTF_8)),
                    new Message("TopicFuzz", "batch-2".getBytes(StandardCharsets.UTF_8))));
            producer.sendOneway(new Message("TopicFuzz", "oneway".getBytes(StandardCharsets.UTF_8)));
            MessageQueue queue = sent.getMessageQueue();
            producer.viewMessage("TopicFuzz", sent.getOffsetMsgId());
            // the key is indexed by the dispatcher, just after the send is answered
            await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> !producer.queryMessage(
                    "TopicFuzz", "key-1", 32, 0, Long.MAX_VALUE).getMessageList().isEmpty());
            producer.maxOffset(queue);
            producer.minOffset(queue);
            producer.searchOffset(queue, System.currentTimeMillis());
            producer.earliestMsgStoreTime(queue);

            TransactionMQProducer transactions = new TransactionMQProducer("PG_FUZZ_TX", traffic);
            transactions.setTransactionListener(new TransactionListener() {
                @Override
                public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
                    return msg.getKeys().startsWith("commit") ? LocalTransactionState.COMMIT_MESSAGE
                            : LocalTransactionState.ROLLBACK_MESSAGE;
                }

                @Override
                public LocalTransactionState checkLocalTransaction(MessageExt msg) {
                    return LocalTransactionState.COMMIT_MESSAGE;
                }
            });
            start(transactions, namesrv, shutdowns);
            transactions.sendMessageInTransaction(new Message("TopicFuzz", "T", "commit-1",
                    "tx".getBytes(StandardCharsets.UTF_8)), null);
            transactions.sendMessageInTransaction(new Message("TopicFuzz", "T", "rollback-1",
                    "tx".getBytes(StandardCharsets.UTF_8)), null);

            Map<String, Integer> attempts = new ConcurrentHashMap<>();
            DefaultMQPushConsumer push = new DefaultMQPushConsumer("CG_FUZZ", traffic);
            push.subscribe("TopicFuzz", MessageSelector.bySql("a IS NULL OR a = '1'"));
            push.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
                // the first delivery of each fails once, so the consumer sends it back
                boolean first = messages.stream().anyMatch(m -> attempts.merge(m.getMsgId(), 1, Integer::sum) == 1);
                return first ? ConsumeConcurrentlyStatus.RECONSUME_LATER : ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
            start(push, namesrv, shutdowns);

            DefaultMQPushConsumer orderly = new DefaultMQPushConsumer("CG_FUZZ_ORDERLY", traffic);
            orderly.subscribe("TopicFuzz", "*");
            orderly.registerMessageListener((MessageListenerOrderly) (messages, context) ->
                    ConsumeOrderlyStatus.SUCCESS);
            start(orderly, namesrv, shutdowns);

            DefaultLitePullConsumer lite = new DefaultLitePullConsumer("CG_FUZZ_LITE", traffic);
            lite.setNamesrvAddr(namesrv);
            lite.setInstanceName("fuzz" + System.nanoTime());
            lite.subscribe("TopicFuzz", "TagA || TagB");
            lite.start();
            shutdowns.add(lite::shutdown);

            await().atMost(Duration.ofSeconds(60)).until(() -> attempts.values().stream().anyMatch(n -> n >= 2)
                    && traffic.requests().stream().anyMatch(r -> r.code() == 41)
                    && traffic.requests().stream().anyMatch(r -> r.code() == 361)
                    && traffic.requests().stream().anyMatch(r -> r.code() == 36));
            lite.poll(1000);
        } finally {
            for (int i = shutdowns.size() - 1; i >= 0; i--) {
                shutdowns.get(i).run();
            }
        }
        List<ApacheTraffic.Request> seeds = new ArrayList<>(traffic.requests());
        seeds.addAll(registrations(broker));
        return seeds;
    }

    private static void start(DefaultMQProducer producer, String namesrv, List<Runnable> shutdowns) throws Exception {
        producer.setNamesrvAddr(namesrv);
        producer.setInstanceName(producer.getProducerGroup() + System.nanoTime());
        producer.start();
        shutdowns.add(producer::shutdown);
    }

    private static void start(DefaultMQPushConsumer consumer, String namesrv, List<Runnable> shutdowns)
            throws Exception {
        consumer.setNamesrvAddr(namesrv);
        consumer.setInstanceName(consumer.getConsumerGroup() + System.nanoTime());
        consumer.setConsumeFromWhere(org.apache.rocketmq.common.consumer.ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.start();
        shutdowns.add(consumer::shutdown);
    }

    /**
     * What brokers and admin tools send the name server: plain and compressed registrations, unregistration, cluster
     * info, and the key-value configuration's codes (as Apache's mqadmin sends them).
     */
    private static List<ApacheTraffic.Request> registrations(String broker) {
        BodyCodec json = new BodyCodec();
        RegisterBrokerBody body = new RegisterBrokerBody(new TopicConfigSerializeWrapper(Map.of("TopicFuzzReg",
                TopicConfig.of("TopicFuzzReg", 4), "%RETRY%CG_FUZZ", TopicConfig.of("%RETRY%CG_FUZZ", 1)),
                new DataVersion(0, 1, 1)), List.of());
        Map<String, String> header = Map.of("brokerName", "broker-fuzz", "brokerAddr", "127.0.0.1:1", "clusterName",
                "DefaultCluster", "haServerAddr", "", "brokerId", "0", "compressed", "false");
        Map<String, String> compressedHeader = new java.util.HashMap<>(header);
        compressedHeader.put("compressed", "true");
        return List.of(
                new ApacheTraffic.Request(103, header, json.encode(body), false, null),
                new ApacheTraffic.Request(103, compressedHeader, new CompressedRegistration(json).encode(body), false,
                        null),
                new ApacheTraffic.Request(104, Map.of("brokerName", "broker-fuzz", "brokerAddr", "127.0.0.1:1",
                        "clusterName", "DefaultCluster", "brokerId", "0"), null, false, null),
                new ApacheTraffic.Request(106, Map.of(), null, false, null),
                new ApacheTraffic.Request(100, Map.of("namespace", "ORDER_TOPIC_CONFIG", "key", "TopicFuzz", "value",
                        "broker-fuzz:4"), null, false, null),
                new ApacheTraffic.Request(101, Map.of("namespace", "ORDER_TOPIC_CONFIG", "key", "TopicFuzz"), null,
                        false, null),
                new ApacheTraffic.Request(102, Map.of("namespace", "ORDER_TOPIC_CONFIG", "key", "TopicFuzz"), null,
                        false, null),
                new ApacheTraffic.Request(219, Map.of("namespace", "ORDER_TOPIC_CONFIG"), null, false, null),
                new ApacheTraffic.Request(9000, Map.of(), null, false, broker));
    }

    /** Sends {@code requests} mutated requests with many in flight; returns how many got no answer in time. */
    /**
     * Requests that got no answer.
     *
     * @param timedOut       none came in time: the server kept a request without answering it
     * @param connectionLost the connection closed under them
     * @param otherwise      failed in any other way
     */
    private record Unanswered(long timedOut, long connectionLost, long otherwise) {
    }

    private static Unanswered fuzz(RequestMutator mutator, long requests, String broker, String namesrv,
                                   Map<Integer, Long> answers) throws InterruptedException {
        AtomicLong timedOut = new AtomicLong();
        AtomicLong connectionLost = new AtomicLong();
        AtomicLong otherwise = new AtomicLong();
        Map<Integer, AtomicLong> codes = new ConcurrentHashMap<>();
        Semaphore inFlight = new Semaphore(IN_FLIGHT);
        try (RemotingClient client = new RemotingClient(RemotingClientConfig.builder().build())) {
            for (long i = 0; i < requests; i++) {
                RequestMutator.Mutated next = mutator.next();
                String address = next.toNameServer() ? namesrv : broker;
                if (next.command().isOneway()) {
                    try {
                        client.invokeOneway(address, next.command(), Duration.ofSeconds(10));
                    } catch (RuntimeException e) {
                        // too many oneways being written at once: nothing is owed an answer
                    }
                    continue;
                }
                inFlight.acquire();
                client.invokeAsync(address, next.command(), Duration.ofSeconds(30)).whenComplete((response, e) -> {
                    if (e != null) {
                        Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
                        (cause instanceof RemotingTimeoutException ? timedOut
                                : cause instanceof RemotingConnectException || cause instanceof RemotingSendException
                                || cause instanceof RemotingConnectionLostException ? connectionLost : otherwise).incrementAndGet();
                    } else {
                        codes.computeIfAbsent(response.code(), c -> new AtomicLong()).incrementAndGet();
                    }
                    inFlight.release();
                });
            }
            inFlight.acquire(IN_FLIGHT);
        }
        codes.forEach((code, count) -> answers.put(code, count.get()));
        return new Unanswered(timedOut.get(), connectionLost.get(), otherwise.get());
    }

    private static void assertStillServes(String broker) {
        try (RemotingClient client = new RemotingClient(RemotingClientConfig.builder().build())) {
            RemotingCommand send = RemotingCommand.request(310).extField("a", "PG_AFTER").extField("b", "TopicFuzz")
                    .extField("c", "TBW102").extField("d", "4").extField("e", "0").extField("f", "0")
                    .extField("g", "0").extField("h", "0").extField("i", "")
                    .body("after".getBytes(StandardCharsets.UTF_8)).build();
            assertThat(client.invokeSync(broker, send, Duration.ofSeconds(10)).code()).isEqualTo(ResponseCode.SUCCESS);
            RemotingCommand pull = RemotingCommand.request(11).extField("consumerGroup", "CG_AFTER")
                    .extField("topic", "TopicFuzz").extField("queueId", "0").extField("queueOffset", "0")
                    .extField("maxMsgNums", "1").extField("sysFlag", "4").extField("commitOffset", "0")
                    .extField("suspendTimeoutMillis", "0").extField("subVersion", "0").extField("subscription", "*")
                    .extField("expressionType", "TAG").build();
            assertThat(client.invokeSync(broker, pull, Duration.ofSeconds(10)).code()).isEqualTo(ResponseCode.SUCCESS);
        }
    }

    @SuppressWarnings("unchecked")
    private static void assertOnlyValidNamesKept(Path storeDir) throws Exception {
        BodyCodec json = new BodyCodec();
        Map<String, Object> topics = json.decode(Files.readAllBytes(storeDir.resolve("config/topics.json")), Map.class);
        assertThat(((Map<String, Object>) topics.get("topicConfigTable")).keySet())
                .allSatisfy(topic -> assertThat(NameRules.topicProblem(topic)).isNull());
        Map<String, Object> groups = json.decode(Files.readAllBytes(storeDir.resolve("config/subscriptionGroup.json")),
                Map.class);
        assertThat(((Map<String, Object>) groups.get("subscriptionGroupTable")).keySet())
                .allSatisfy(group -> assertThat(NameRules.groupProblem(group)).isNull());
        try (Stream<Path> queues = Files.list(storeDir.resolve("store/consumequeue"))) {
            assertThat(queues.map(p -> p.getFileName().toString())).allSatisfy(name -> assertThat(
                    NameRules.hasOnlyAllowedCharacters(name.replace("~", ""))).as(name).isTrue());
        }
        assertThat(SystemTopics.isBrokerOnly("TBW102")).isTrue();
    }
}
