package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ferry.api.Message;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * What a transaction manager's recovery relies on: half messages left open by a client that went away are found by
 * another client of the same group, by the property that names their transaction, and ended from there; the scan
 * never returns what a broker saw decided.
 */
class HalfMessageRecoveryTest extends AgainstCluster {
    private static final Duration WAIT = Duration.ofSeconds(40);
    private static final String BRANCH = "TEST_BRANCH";

    private static Message message(String topic, String key, String branch) {
        Message.Builder builder = Message.builder(topic).body(key.getBytes(StandardCharsets.UTF_8)).keys(key);
        if (branch != null) {
            builder.property(BRANCH, branch);
        }
        return builder.build();
    }

    @Test
    void shouldFindTheHalfMessagesAClientLeftOpenAndEndThemFromAnotherClient() {
        String topic = ClientTestSupport.unique("TxRecovery");
        String group = ClientTestSupport.unique("PG");
        FerryClient first = newClient();
        Producer gone = first.producer(ProducerConfig.builder(group).build(), m -> TransactionState.UNKNOWN);
        HalfMessage committedBefore = gone.sendHalf(message(topic, "A1", "branch-a"));
        HalfMessage left = gone.sendHalf(message(topic, "A2", "branch-a"));
        HalfMessage toRollBack = gone.sendHalf(message(topic, "B1", "branch-b"));
        gone.sendHalf(message(topic, "C1", null));
        gone.endTransaction(committedBefore, TransactionState.COMMIT);
        first.close();

        FerryClient second = newClient();
        Producer recovering = second.producer(ProducerConfig.builder(group).build(), m -> TransactionState.UNKNOWN);
        // an Apache broker records decisions in batches, a few seconds after it confirmed them
        await().atMost(WAIT).untilAsserted(() -> assertThat(recovering.undecidedHalfMessages(BRANCH))
                .extracting(HalfMessage::msgId).containsExactlyInAnyOrder(left.msgId(), toRollBack.msgId()));
        List<HalfMessage> undecided = recovering.undecidedHalfMessages(BRANCH);
        assertThat(undecided).allSatisfy(half -> {
            assertThat(half.topic()).isEqualTo(topic);
            assertThat(half.producerGroup()).contains(group);
        });
        assertThat(undecided).filteredOn(h -> h.msgId().equals(left.msgId())).singleElement()
                .satisfies(half -> assertThat(half.property(BRANCH)).contains("branch-a"));

        for (HalfMessage half : undecided) {
            recovering.endTransaction(half, half.msgId().equals(left.msgId())
                    ? TransactionState.COMMIT : TransactionState.ROLLBACK);
        }
        // ending is a oneway request, and Apache's broker writes its decisions a moment after reading them
        await().atMost(WAIT).untilAsserted(() -> assertThat(recovering.undecidedHalfMessages(BRANCH)).isEmpty());

        List<String> received = new CopyOnWriteArrayList<>();
        PushConsumer consumer = second.pushConsumer(PushConsumerConfig.builder(ClientTestSupport.unique("CG"))
                .subscribe(topic, "*").consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).build(),
                m -> received.add(m.keys().get(0)));
        try {
            await().atMost(WAIT).until(() -> received.size() >= 2);
        } finally {
            consumer.close();
        }
        assertThat(received).containsExactlyInAnyOrder("A1", "A2");
    }

    @Test
    void shouldRefuseToEndATransactionAsUnknown() {
        Producer producer = client.producer(ProducerConfig.builder(ClientTestSupport.unique("PG")).build(),
                m -> TransactionState.UNKNOWN);
        HalfMessage half = producer.sendHalf(message(ClientTestSupport.unique("TxUnknown"), "K", "b"));
        assertThatThrownBy(() -> producer.endTransaction(half, TransactionState.UNKNOWN))
                .isInstanceOf(IllegalArgumentException.class);
        producer.endTransaction(half, TransactionState.ROLLBACK);
    }

    @Test
    void shouldReadBothBrokersFormsOfADecision() {
        assertThat(HalfMessageScan.decidedOffsets("12,13,")).containsExactly(12L, 13L);
        assertThat(HalfMessageScan.decidedOffsets("4096:7")).containsExactly(7L);
        assertThat(HalfMessageScan.decidedOffsets("not a decision")).isEmpty();
    }
}
