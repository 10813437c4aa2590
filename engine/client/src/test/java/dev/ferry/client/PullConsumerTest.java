package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.api.Message;
import dev.ferry.api.MessageQueue;
import dev.ferry.api.ReceivedMessage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pull ("lite") consumer: poll, commit, resume after the committed offset, seek, pause. */
class PullConsumerTest extends AgainstCluster {
    private static final Duration WAIT = Duration.ofSeconds(30);


    private static String text(ReceivedMessage message) {
        return new String(message.body(), StandardCharsets.UTF_8);
    }

    private static java.util.Set<MessageQueue> send(Producer producer, String topic, String prefix, int count) {
        java.util.Set<MessageQueue> queues = new java.util.HashSet<>();
        for (int i = 0; i < count; i++) {
            queues.add(producer.send(Message.builder(topic).body((prefix + i).getBytes(StandardCharsets.UTF_8))
                    .build()).messageQueue());
        }
        return queues;
    }

    private static List<String> pollUntil(PullConsumer consumer, int count) {
        List<String> polled = new ArrayList<>();
        await().atMost(WAIT).until(() -> {
            consumer.poll(Duration.ofMillis(200)).forEach(m -> polled.add(text(m)));
            return polled.size() >= count;
        });
        return polled;
    }

    /** Polls until every one of {@code expected} was seen (at-least-once delivery may repeat some on the way). */
    private static java.util.Set<String> pollUntilSeen(PullConsumer consumer, java.util.Set<String> expected) {
        java.util.Set<String> seen = new java.util.HashSet<>();
        await().atMost(WAIT).until(() -> {
            consumer.poll(Duration.ofMillis(200)).forEach(m -> seen.add(text(m)));
            return seen.containsAll(expected);
        });
        return seen;
    }

    @Test
    void shouldResumeAfterTheCommittedOffsetInANewConsumer() {
        String topic = ClientTestSupport.unique("Lite");
        String group = ClientTestSupport.unique("CG");
        Producer producer = producer();
        java.util.Set<MessageQueue> queues = send(producer, topic, "first-", 10);

        PullConsumerConfig config = PullConsumerConfig.builder(group).autoCommit(false)
                .consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).build();
        try (PullConsumer consumer = client.pullConsumer(config)) {
            consumer.subscribe(topic, "*");
            java.util.Set<String> first = new java.util.HashSet<>();
            for (int i = 0; i < 10; i++) {
                first.add("first-" + i);
            }
            // Commit only once every message was polled: counting polls would also count a repeat.
            assertThat(pollUntilSeen(consumer, first)).isEqualTo(first);
            // Then until the broker answers queries with all ten: commits travel oneway, and a queue read
            // again after a rebalance can hold repeats still in flight, which keep its commit behind until
            // polled (at-least-once). Each look uses a fresh probe, since a consumer caches the first offset
            // it read.
            await().atMost(WAIT).until(() -> {
                assertThat(consumer.poll(Duration.ofMillis(100))).extracting(PullConsumerTest::text)
                        .allMatch(first::contains);
                consumer.commit();
                try (PullConsumer probe = client.pullConsumer(config)) {
                    return queues.stream().mapToLong(q -> probe.committed(q).orElse(0)).sum() == 10;
                }
            });
        }
        send(producer, topic, "second-", 5);
        java.util.Set<String> second = java.util.Set.of("second-0", "second-1", "second-2", "second-3", "second-4");
        try (FerryClient other = ClientTestSupport.client(cluster, directory);
             PullConsumer resumed = other.pullConsumer(config)) {
            resumed.subscribe(topic, "*");
            assertThat(pollUntilSeen(resumed, second)).as("nothing before the committed offsets")
                    .isEqualTo(second);
        }
    }

    @Test
    void shouldReadAssignedQueuesAgainAfterASeek() {
        String topic = ClientTestSupport.unique("Seek");
        Producer producer = producer();
        MessageQueue queue = null;
        for (int i = 0; i < 3; i++) {
            queue = producer.send(Message.builder(topic).body(("s" + i).getBytes(StandardCharsets.UTF_8)).build(),
                    "one-queue").messageQueue();
        }
        try (PullConsumer consumer = client.pullConsumer(PullConsumerConfig.builder(ClientTestSupport.unique("CG"))
                .consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).build())) {
            consumer.assign(List.of(queue));
            assertThat(pollUntil(consumer, 3)).containsExactly("s0", "s1", "s2");
            consumer.seek(queue, 1);
            assertThat(pollUntil(consumer, 2)).containsExactly("s1", "s2");
            consumer.pause(List.of(queue));
            producer.send(Message.builder(topic).body("s3".getBytes(StandardCharsets.UTF_8)).build(), "one-queue");
            consumer.resume(List.of(queue));
            assertThat(pollUntil(consumer, 1)).containsExactly("s3");
            consumer.commit();
            assertThat(consumer.committed(queue)).hasValue(4);
        }
    }
}
