package dev.ferry.liberty.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.api.Message;
import dev.ferry.api.MessageQueue;
import dev.ferry.api.SendResult;
import dev.ferry.client.ConsumeFromWhere;
import dev.ferry.client.PushConsumer;
import dev.ferry.client.PushConsumerConfig;
import dev.ferry.liberty.apps.ModuloMdb;
import dev.ferry.spi.PluginConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * {@link ModuloMdb} shares its group with a consumer the test runs beside it, both with the sample plugin's
 * {@code queue-id-modulo} strategy: with two members each gets the queues of one parity (averagely, the default,
 * would give each two neighbouring queues). Rebalances settle after the second member joins, so the test sends
 * rounds of one message per queue until a whole round is delivered as the strategy says.
 */
public final class StrategyRoundTrip {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int ROUNDS = 10;

    private StrategyRoundTrip() {
    }

    /**
     * Which queues' messages of one round reached the bean, and which the consumer beside it.
     *
     * @param besideAssigned the queues the consumer beside the bean was assigned when the round was delivered
     */
    public record Split(TreeSet<Integer> bean, TreeSet<Integer> beside, Set<Integer> besideAssigned) {
        /** Whether each side got exactly the queues of one parity, the two parities different. */
        public boolean isModulo() {
            return bean.size() == 2 && beside.size() == 2
                    && bean.stream().map(q -> q % 2).distinct().count() == 1
                    && beside.stream().noneMatch(q -> q % 2 == bean.first() % 2)
                    && beside.equals(besideAssigned);
        }
    }

    /** The first round split as queue-id-modulo assigns, or the last one tried when none was. */
    public static Split run(Http http, String app, String nameServer, Path offsets) {
        try (Engine engine = new Engine(nameServer, offsets)) {
            Map<Integer, Set<String>> besideBean = new ConcurrentHashMap<>();
            PushConsumer beside = engine.client().pushConsumer(PushConsumerConfig.builder(ModuloMdb.GROUP)
                    .subscribe(ModuloMdb.TOPIC, "*").consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET)
                    .allocateStrategy("queue-id-modulo", PluginConfig.empty()).build(),
                    message -> besideBean.computeIfAbsent(message.queueId(), q -> ConcurrentHashMap.newKeySet())
                            .add(message.msgId()));
            Split split = null;
            for (int round = 0; round < ROUNDS && (split == null || !split.isModulo()); round++) {
                Map<Integer, String> sent = sendOnePerQueue(engine, round);
                split = await().atMost(WAIT).until(() -> split(http, app, sent, besideBean, beside),
                        s -> s.bean().size() + s.beside().size() >= sent.size());
            }
            return split;
        }
    }

    private static Split split(Http http, String app, Map<Integer, String> sent,
                               Map<Integer, Set<String>> besideBean, PushConsumer beside) {
        Set<String> toBean = new HashSet<>();
        http.getJson("/" + app + "/probe/deliveries?bean=ModuloMdb").forEach(d -> toBean.add(d.get("msgId").asText()));
        TreeSet<Integer> bean = new TreeSet<>();
        TreeSet<Integer> besides = new TreeSet<>();
        sent.forEach((queue, msgId) -> {
            if (toBean.contains(msgId)) {
                bean.add(queue);
            }
            if (besideBean.getOrDefault(queue, Set.of()).contains(msgId)) {
                besides.add(queue);
            }
        });
        Set<Integer> assigned = beside.assignedQueues().stream().filter(q -> q.topic().equals(ModuloMdb.TOPIC))
                .map(MessageQueue::queueId).collect(Collectors.toCollection(TreeSet::new));
        return new Split(bean, besides, assigned);
    }

    /** One message to each of the topic's four queues (the sharding key picks the queue), by queue id. */
    private static Map<Integer, String> sendOnePerQueue(Engine engine, int round) {
        Map<Integer, String> sent = new HashMap<>();
        for (int key = 0; key < 64 && sent.size() < 4; key++) {
            SendResult result = engine.producer().send(Message.builder(ModuloMdb.TOPIC)
                    .body(("round-" + round).getBytes(StandardCharsets.UTF_8)).build(), "key-" + key);
            sent.putIfAbsent(result.queueId(), result.msgId());
        }
        assertThat(sent.keySet()).as("the queues of " + ModuloMdb.TOPIC).isEqualTo(Set.of(0, 1, 2, 3));
        return sent;
    }

    /** Asserts the split shows queue-id-modulo at work on both sides. */
    public static void assertModulo(Split split) {
        assertThat(split.isModulo()).as("a round delivered as queue-id-modulo assigns: %s", split).isTrue();
        assertThat(List.copyOf(split.bean())).isIn(List.of(0, 2), List.of(1, 3));
    }
}
