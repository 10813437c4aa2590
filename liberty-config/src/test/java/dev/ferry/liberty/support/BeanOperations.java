package dev.ferry.liberty.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ferry.api.Message;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.api.SendResult;
import dev.ferry.client.ConsumeFromWhere;
import dev.ferry.client.FerryClient;
import dev.ferry.client.Producer;
import dev.ferry.client.PushConsumer;
import dev.ferry.client.PushConsumerConfig;
import dev.ferry.liberty.apps.BackoffMdb;
import dev.ferry.liberty.apps.BatchMdb;
import dev.ferry.liberty.apps.PauseMdb;
import dev.ferry.liberty.apps.ReplayMdb;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * What Jakarta EE teams do with their beans, on whichever server deploys ops-app (its beans in
 * {@code dev.ferry.liberty.apps}): batches, poison queues, a redelivery policy, pausing a bean, replaying its group.
 * Messages are sent and, where a second instance of a bean is needed, consumed by the test's own client; the
 * operations go through {@code /ops/invoke}, as a JMX console calls the Activation bean.
 */
public final class BeanOperations {
    public static final String APP = "ops-app";
    private static final Duration WAIT = Duration.ofSeconds(90);

    private final Http http;
    private final Engine engine;

    public BeanOperations(Http http, Engine engine) {
        this.http = http;
        this.engine = engine;
    }

    private List<JsonNode> deliveries(String bean) {
        List<JsonNode> list = new ArrayList<>();
        http.getJson("/" + APP + "/probe/deliveries?bean=" + bean).forEach(list::add);
        return list;
    }

    private SendResult send(String topic, String body, String shardingKey) {
        Producer producer = engine.producer();
        return producer.send(Message.builder(topic).body(body.getBytes(StandardCharsets.UTF_8)).keys(body).build(),
                shardingKey);
    }

    /** Calls an operation of the Activation bean of {@code group}; {@code as} stands for the JMX user, if any. */
    public String invoke(String group, String operation, String arg, String as) {
        StringBuilder path = new StringBuilder("/" + APP + "/ops/invoke?group=" + encode(group) + "&operation="
                + operation);
        if (arg != null) {
            path.append("&arg=").append(encode(arg));
        }
        if (as != null) {
            path.append("&as=").append(encode(as));
        }
        Http.Answer answer = http.postAnswer(path.toString(), "");
        assertThat(answer.status()).as(operation + ": " + answer.body()).isEqualTo(200);
        return answer.body();
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    /**
     * Batches of up to five messages of one queue, in queue order within and across batches, each in one transaction
     * of its own; a batch failed from one message on delivers only that message and the ones after it again.
     */
    public void batchesKeepQueueOrderEachInOneTransaction() {
        List<String> shards = List.of("left", "right");
        Set<String> sent = new java.util.HashSet<>();
        for (int i = 0; i < 24; i++) {
            String body = (i == 13 ? "fail-from-" : "b-") + String.format("%02d", i);
            sent.add(send(BatchMdb.TOPIC, body, shards.get(i % 2)).msgId());
        }
        await().atMost(WAIT).until(() -> delivered("BatchMdb").containsAll(sent));

        List<JsonNode> all = deliveries("BatchMdb").stream().filter(d -> sent.contains(d.get("msgId").asText()))
                .toList();
        Map<Integer, List<JsonNode>> batches = all.stream().collect(Collectors.groupingBy(
                d -> d.get("batch").asInt(), TreeMap::new, Collectors.toList()));
        assertThat(batches.values()).allSatisfy(batch -> {
            assertThat(batch).hasSizeBetween(1, 5);
            assertThat(batch.stream().map(d -> d.get("queueId").asInt()).distinct()).hasSize(1);
            assertThat(batch.stream().map(d -> d.get("transaction").asText()).distinct())
                    .as("one transaction a batch").hasSize(1).doesNotContain("null");
        });
        assertThat(batches.values().stream().map(b -> b.get(0).get("transaction").asText()).distinct())
                .as("a transaction of its own each").hasSize(batches.size());
        // per queue, offsets in delivery order: ascending, except that the failed part of one batch comes again
        Map<Integer, List<Long>> offsets = new TreeMap<>();
        for (JsonNode d : all) {
            offsets.computeIfAbsent(d.get("queueId").asInt(), q -> new ArrayList<>())
                    .add(d.get("queueOffset").asLong());
        }
        JsonNode failing = all.stream().filter(d -> d.get("body").asText().startsWith("fail-from")).findFirst()
                .orElseThrow();
        offsets.forEach((queue, seen) -> {
            List<Long> once = seen.stream().distinct().toList();
            assertThat(once).as("queue " + queue + " in order").isSorted();
            List<Long> again = new ArrayList<>(seen);
            once.forEach(again::remove);
            if (queue == failing.get("queueId").asInt()) {
                long from = failing.get("queueOffset").asLong();
                assertThat(again).as("only the failed message and those after it in its batch, again")
                        .isNotEmpty().allMatch(offset -> offset >= from).contains(from);
            } else {
                assertThat(again).isEmpty();
            }
        });
    }

    /**
     * One poison message pauses its queue and nothing else: the topic's other queues drain, its later messages wait
     * (in order, for an orderly bean), the Activation bean and {@code log} name the queue, message and exception
     * ({@code lastFailure}: what the server handed the adapter);
     * then the operator resumes the queue (healed: the poison is delivered again) or skips the poison to the
     * dead-letter queue.
     */
    public void poisonPausesOnlyItsQueue(String bean, String group, String topic, boolean orderly, boolean skip,
                                         String lastFailure, ServerLog log) {
        String poison = send(topic, "poison", "poisoned").msgId();
        int pausedQueue = deliveredQueue(bean, poison);
        await().atMost(WAIT).until(() -> paused(group).length == 1);
        String[] paused = paused(group);
        assertThat(paused[0]).contains(":" + pausedQueue + " msgId=" + poison, "failures=3", lastFailure);
        // sent while the queue is paused: the other queues' messages are delivered, the paused queue's wait
        List<String> others = new ArrayList<>();
        List<String> behind = new ArrayList<>();
        for (int i = 0; others.size() < 12; i++) {
            SendResult sent = send(topic, "other-" + i, "shard-" + i);
            (sent.messageQueue().queueId() == pausedQueue ? behind : others).add(sent.msgId());
        }
        for (int i = 0; i < 3; i++) {
            behind.add(send(topic, "behind-" + i, "poisoned").msgId());
        }
        await().atMost(WAIT).until(() -> delivered(bean).containsAll(others));
        // what waits behind the poison is pulled and held, not delivered
        await().atMost(WAIT).until(() -> activation(group).get("InFlight").asLong() == 1 + behind.size());
        assertThat(delivered(bean)).doesNotContainAnyElementsOf(behind);
        assertThat(delivered(bean).stream().filter(poison::equals)).hasSize(3);
        if (log != null) {
            assertThat(log.linesWith("FERRY-RA-0230")).anySatisfy(line -> assertThat(line)
                    .contains(":" + pausedQueue + " is paused: message " + poison, "cannot process poison"));
        }

        String queue = paused[0].substring(0, paused[0].indexOf(' '));
        if (skip) {
            invoke(group, "skipMessage", queue, null);
        } else {
            http.post("/" + APP + "/ops/heal?bean=" + bean + "&body=poison", "");
            invoke(group, "resumeQueue", queue, null);
        }
        await().atMost(WAIT).until(() -> delivered(bean).containsAll(behind));
        assertThat(paused(group)).isEmpty();
        List<String> queueOrder = deliveries(bean).stream().filter(d -> d.get("queueId").asInt() == pausedQueue)
                .map(d -> d.get("msgId").asText()).toList();
        if (skip) {
            List<String> expected = new ArrayList<>(List.of(poison, poison, poison));
            expected.addAll(behind);
            assertThat(queueOrder).containsExactlyInAnyOrderElementsOf(expected);
        } else {
            List<String> expected = new ArrayList<>(List.of(poison, poison, poison, poison));
            expected.addAll(behind);
            if (orderly) {
                assertThat(queueOrder).as("the healed poison, then what waited, in order").isEqualTo(expected);
            } else {
                assertThat(queueOrder).containsExactlyInAnyOrderElementsOf(expected);
            }
        }
        if (log != null && skip) {
            assertThat(log.linesWith("FERRY-RA-0231")).anySatisfy(line -> assertThat(line)
                    .contains(poison, "moved to the dead-letter queue"));
        }
    }

    private int deliveredQueue(String bean, String msgId) {
        await().atMost(WAIT).untilAsserted(() -> assertThat(delivered(bean)).as(() -> "deliveries of " + bean
                + "; its activations: " + ManagementView.read(http, APP)).contains(msgId));
        return deliveries(bean).stream().filter(d -> d.get("msgId").asText().equals(msgId)).findFirst().orElseThrow()
                .get("queueId").asInt();
    }

    /** The ids of {@code bean}'s deliveries of the messages in {@code msgIds}, in delivery order. */
    private List<String> deliveredOf(String bean, List<String> msgIds) {
        return delivered(bean).stream().filter(msgIds::contains).toList();
    }

    private List<String> delivered(String bean) {
        return deliveries(bean).stream().map(d -> d.get("msgId").asText()).toList();
    }

    private String[] paused(String group) {
        JsonNode queues = activation(group).get("PausedQueues");
        List<String> lines = new ArrayList<>();
        queues.forEach(q -> lines.add(q.asText()));
        return lines.toArray(String[]::new);
    }

    private JsonNode activation(String group) {
        return ManagementView.read(http, APP).activation(group).orElseThrow();
    }

    /** A failing message waits 300 ms, 600 ms, then 1 s twice: its redelivery policy's growing, capped delays. */
    public void redeliveryWaitsGrowUpToTheirLimit() {
        String msgId = send(BackoffMdb.TOPIC, "backoff", "backoff").msgId();
        await().atMost(WAIT).until(() -> delivered("BackoffMdb").stream().filter(msgId::equals).count() == 5);
        List<Long> at = deliveries("BackoffMdb").stream().filter(d -> d.get("msgId").asText().equals(msgId))
                .map(d -> d.get("at").asLong()).toList();
        List<Long> waits = new ArrayList<>();
        for (int i = 1; i < at.size(); i++) {
            waits.add(at.get(i) - at.get(i - 1));
        }
        assertThat(waits.get(0)).as("first wait " + waits).isBetween(300L, 900L);
        assertThat(waits.get(1)).as("second wait " + waits).isBetween(600L, 1_500L);
        assertThat(waits.get(2)).as("third wait, capped " + waits).isBetween(1_000L, 1_900L);
        assertThat(waits.get(3)).as("fourth wait, capped " + waits).isBetween(1_000L, 1_900L);
    }

    /**
     * The group is moved back while the bean runs, to a time and then to an offset: the bean reads those messages
     * again without a restart, and the server's log says who asked.
     */
    public void replayWhileTheBeanRuns(ServerLog log) {
        Instant before = Instant.now().minusSeconds(1);
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            sent.add(send(ReplayMdb.TOPIC, "r-" + i, "replay").msgId());
        }
        await().atMost(WAIT).until(() -> delivered("ReplayMdb").containsAll(sent));
        JsonNode third = deliveries("ReplayMdb").stream().filter(d -> d.get("msgId").asText().equals(sent.get(2)))
                .findFirst().orElseThrow();

        String moved = invoke(ReplayMdb.GROUP, "replayFrom", before.toString(), "operator-ann");
        assertThat(moved).contains(ReplayMdb.TOPIC + ":");
        await().atMost(WAIT).until(() -> deliveredOf("ReplayMdb", sent).size() == 8);
        assertThat(deliveredOf("ReplayMdb", sent).subList(4, 8)).as("read again, in order").isEqualTo(sent);

        String brokerName = moved.substring(ReplayMdb.TOPIC.length() + 1, moved.indexOf(':',
                ReplayMdb.TOPIC.length() + 1));
        invoke(ReplayMdb.GROUP, "replayOffsets", brokerName + ":" + third.get("queueId").asInt() + "="
                + third.get("queueOffset").asLong(), null);
        await().atMost(WAIT).until(() -> deliveredOf("ReplayMdb", sent).size() == 10);
        assertThat(deliveredOf("ReplayMdb", sent).subList(8, 10)).isEqualTo(sent.subList(2, 4));
        if (log != null) {
            assertThat(log.linesWith("FERRY-RA-0235")).anySatisfy(line -> assertThat(line)
                    .contains("operator-ann asked to replay group " + ReplayMdb.GROUP));
        }
    }

    /**
     * A paused bean lets go of its queues: a second instance of it (the test's own consumer of the group) takes all
     * of them, and nothing reaches the bean until it resumes; then the group divides the queues again.
     */
    public void pausedBeanReleasesItsQueues(Runnable pause, Runnable resume) {
        FerryClient client = engine.client();
        List<ReceivedMessage> elsewhere = new CopyOnWriteArrayList<>();
        // from the first offset as the bean does: the group may be new, and its first messages are the test's
        PushConsumer other = client.pushConsumer(PushConsumerConfig.builder(PauseMdb.GROUP)
                .subscribe(PauseMdb.TOPIC, "*").consumeOrderly(true).consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET)
                .build(), elsewhere::add);
        try {
            // both instances hold queues: messages to every queue reach both
            Map<String, String> first = sendToEveryQueue("warm");
            await().atMost(WAIT).until(() -> {
                Set<String> reached = new java.util.HashSet<>(delivered("PauseMdb"));
                elsewhere.forEach(m -> reached.add(m.msgId()));
                return reached.containsAll(first.keySet());
            });
            pause.run();
            Map<String, String> whilePaused = sendToEveryQueue("paused");
            await().atMost(WAIT).until(() -> received(elsewhere, whilePaused.keySet()) == whilePaused.size());
            assertThat(deliveredOf(whilePaused.keySet())).as("the paused bean took none").isZero();

            resume.run();
            await().atMost(WAIT).untilAsserted(() -> {
                Map<String, String> after = sendToEveryQueue("resumed");
                assertThat(deliveredOf(after.keySet())).isPositive();
            });
        } finally {
            other.close();
        }
    }

    private long deliveredOf(Set<String> msgIds) {
        return delivered("PauseMdb").stream().filter(msgIds::contains).count();
    }

    private static long received(List<ReceivedMessage> messages, Set<String> msgIds) {
        return messages.stream().map(ReceivedMessage::msgId).filter(msgIds::contains).count();
    }

    /** One message to each queue of PauseMdb's topic, by msgId. */
    private Map<String, String> sendToEveryQueue(String prefix) {
        Map<String, String> sent = new LinkedHashMap<>();
        Set<Integer> queues = new java.util.HashSet<>();
        for (int i = 0; queues.size() < 4 && i < 200; i++) {
            SendResult result = send(PauseMdb.TOPIC, prefix + "-" + i, prefix + "-" + i);
            queues.add(result.messageQueue().queueId());
            sent.put(result.msgId(), prefix + "-" + i);
        }
        return sent;
    }
}
