package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.api.Message;
import dev.ferry.api.MessageQueue;
import dev.ferry.api.ReceivedMessage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A running group moved back at the brokers, to a time and to an offset: its consumer reads those messages again
 * without a restart. Against Apache's broker the reset is applied at the consumer's next pull (its server-side
 * reset, answered PULL_OFFSET_MOVED); against Ferry's the broker tells the consumer at once.
 */
class ReplayTest extends AgainstCluster {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void shouldReReadFromATimeAndThenFromAnOffsetWhileTheConsumerRuns() {
        String topic = ClientTestSupport.unique("Replay");
        String group = ClientTestSupport.unique("CG");
        Producer producer = producer();
        Instant before = Instant.now().minusSeconds(1);
        MessageQueue queue = null;
        for (int i = 0; i < 4; i++) {
            queue = producer.send(Message.builder(topic).body(("r" + i).getBytes(StandardCharsets.UTF_8)).build(),
                    "one-key").messageQueue();
        }
        List<ReceivedMessage> received = new CopyOnWriteArrayList<>();
        // a short long-poll: Apache's broker applies a reset at the consumer's next pull
        PushConsumer consumer = client.pushConsumer(PushConsumerConfig.builder(group).subscribe(topic, "*")
                .consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).consumeOrderly(true)
                .suspendTimeout(Duration.ofSeconds(2)).build(), received::add);
        try {
            await().atMost(WAIT).until(() -> received.size() == 4);
            long third = received.get(2).queueOffset();

            Map<MessageQueue, Long> moved = client.resetOffsetsToTime(group, topic, before);

            assertThat(moved).containsEntry(queue, 0L);
            await().atMost(WAIT).until(() -> received.size() == 8);
            assertThat(bodies(received.subList(4, 8))).containsExactly("r0", "r1", "r2", "r3");

            assertThat(client.resetOffsets(group, Map.of(queue, third))).containsEntry(queue, third);
            await().atMost(WAIT).until(() -> received.size() == 10);
            assertThat(bodies(received.subList(8, 10))).containsExactly("r2", "r3");
        } finally {
            consumer.close();
        }
    }

    private static List<String> bodies(List<ReceivedMessage> messages) {
        return messages.stream().map(m -> new String(m.body(), StandardCharsets.UTF_8)).toList();
    }
}
