package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ferry.api.Message;
import dev.ferry.api.ReceivedMessage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Transactional sends: commit delivers, rollback drops, unknown is decided by the broker's check-back. */
class TransactionTest extends AgainstCluster {
    private static final Duration WAIT = Duration.ofSeconds(40);

    private static Message message(String topic, String key) {
        return Message.builder(topic).body(key.getBytes(StandardCharsets.UTF_8)).keys(key).build();
    }

    @Test
    void shouldDeliverCommittedAndCheckedMessagesButNotRolledBackOnes() {
        String topic = ClientTestSupport.unique("Tx");
        List<ReceivedMessage> checked = new CopyOnWriteArrayList<>();
        Producer producer = client.producer(ProducerConfig.builder(ClientTestSupport.unique("PG")).build(),
                message -> {
                    checked.add(message);
                    return TransactionState.COMMIT;
                });
        TransactionSendResult commit = producer.sendInTransaction(message(topic, "TX_COMMIT"),
                m -> TransactionState.COMMIT);
        TransactionSendResult rollback = producer.sendInTransaction(message(topic, "TX_ROLLBACK"),
                m -> TransactionState.ROLLBACK);
        TransactionSendResult unknown = producer.sendInTransaction(message(topic, "TX_UNKNOWN"), m -> {
            throw new IllegalStateException("undecided");
        });
        assertThat(commit.state()).isEqualTo(TransactionState.COMMIT);
        assertThat(rollback.state()).isEqualTo(TransactionState.ROLLBACK);
        assertThat(unknown.state()).isEqualTo(TransactionState.UNKNOWN);

        List<String> received = new CopyOnWriteArrayList<>();
        PushConsumer consumer = client.pushConsumer(PushConsumerConfig.builder(ClientTestSupport.unique("CG"))
                .subscribe(topic, "*").consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).build(),
                m -> received.add(m.keys().get(0)));
        try {
            await().atMost(WAIT).until(() -> received.size() >= 2);
        } finally {
            consumer.close();
        }
        assertThat(received).containsExactlyInAnyOrder("TX_COMMIT", "TX_UNKNOWN");
        assertThat(checked).extracting(m -> m.keys().get(0)).contains("TX_UNKNOWN").doesNotContain("TX_COMMIT");
        assertThat(checked.get(0).msgId()).isEqualTo(unknown.sendResult().msgId());
    }

    @Test
    void shouldRefuseTransactionsWithoutAChecker() {
        Producer producer = producer();
        assertThatThrownBy(() -> producer.sendInTransaction(message("T", "K"), m -> TransactionState.COMMIT))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("TransactionChecker");
    }
}
