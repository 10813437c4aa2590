package dev.ferry.ra.inbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.api.BatchResult;
import dev.ferry.api.MessageQueue;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.format.Clock;
import dev.ferry.ra.RecordingEndpointFactory;
import dev.ferry.spi.ReadOffsetType;
import dev.ferry.spi.TransactionalOffsetStore;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * A batch bean's delivery: one endpoint call (and one transaction) a batch; with a transactional offset store, what
 * was consumed before is left out and the offset claimed through the last message the bean consumed.
 */
class BatchEndpointDeliveryTest {
    private static final MessageQueue QUEUE = new MessageQueue("Orders", "broker-a", 0);

    private static List<ReceivedMessage> batch(long from, long to) {
        return LongStream.range(from, to).mapToObj(offset -> new ReceivedMessage("Orders", new byte[1], Map.of(),
                "id-" + offset, "broker-a", 0, offset, offset * 100, 0, 0, 0)).toList();
    }

    /** A store like jdbc's: the queue's next offset, which a claim moves past the offset claimed. */
    private static final class ThroughStore implements TransactionalOffsetStore {
        long next;
        boolean otherWasFirst;
        final List<String> claims = new CopyOnWriteArrayList<>();

        ThroughStore(long next) {
            this.next = next;
        }

        @Override
        public boolean claim(MessageQueue queue, long offset) {
            if (otherWasFirst || offset < next) {
                claims.add(offset + ":taken");
                return false;
            }
            next = offset + 1;
            claims.add(offset + ":claimed");
            return true;
        }

        @Override
        public long read(MessageQueue queue, ReadOffsetType type) {
            return next;
        }

        @Override
        public void load() {
        }

        @Override
        public void update(MessageQueue queue, long nextOffset, boolean increaseOnly) {
        }

        @Override
        public void persist(MessageQueue queue) {
        }

        @Override
        public void persistAll(Set<MessageQueue> assigned) {
        }

        @Override
        public void remove(MessageQueue queue) {
        }

        @Override
        public Map<MessageQueue, Long> offsets(String topic) {
            return Map.of(QUEUE, next);
        }
    }

    private static EndpointDelivery delivery(RecordingEndpointFactory beans, Optional<TransactionalOffsetStore> store) {
        EndpointDelivery delivery = new EndpointDelivery(beans, "activation[batch]", true, Clock.system());
        delivery.claimIn(store);
        return delivery;
    }

    @Test
    void shouldRecogniseABatchBeanByItsClass() {
        assertThat(EndpointDelivery.takesBatches(RecordingEndpointFactory.batches(b -> null))).isTrue();
        assertThat(EndpointDelivery.takesBatches(RecordingEndpointFactory.accepting())).isFalse();
    }

    @Test
    void shouldDeliverTheWholeBatchInOneEndpointCallAndPassOnWhatTheBeanSays() throws Exception {
        RecordingEndpointFactory beans = RecordingEndpointFactory.batches(b -> BatchResult.failedFrom(b.get(2)));
        List<ReceivedMessage> batch = batch(0, 4);

        BatchResult result = delivery(beans, Optional.empty()).onMessages(batch);

        assertThat(result.failedIndexIn(batch)).isEqualTo(2);
        assertThat(beans.created()).isEqualTo(1);
        assertThat(beans.batches()).containsExactly(batch);
        assertThat(beans.calls()).extracting(RecordingEndpointFactory.Call::step)
                .containsExactly("beforeDelivery", "onMessages", "afterDelivery", "release");
        assertThat(beans.calls().get(0).method()).isEqualTo(EndpointDelivery.ON_MESSAGES);
    }

    @Test
    void shouldRunATransactedBatchInOneTransactionAndClaimThroughTheLastMessageTheBeanConsumed() throws Exception {
        ThroughStore store = new ThroughStore(2); // offsets 0 and 1 were consumed by a committed transaction
        RecordingEndpointFactory beans = RecordingEndpointFactory.batches(b -> BatchResult.failedFrom(b.get(2)))
                .transacted();
        List<ReceivedMessage> batch = batch(0, 6);

        BatchResult result = delivery(beans, Optional.of(store)).onMessages(batch);

        assertThat(beans.batches()).as("what was consumed before is left out").containsExactly(batch.subList(2, 6));
        assertThat(store.claims).as("claimed through offset 3, the last consumed").containsExactly("3:claimed");
        assertThat(beans.commits()).isEqualTo(1);
        assertThat(result.failedIndexIn(batch)).as("4 and 5 are delivered again").isEqualTo(4);
    }

    @Test
    void shouldNotCallTheBeanForABatchConsumedBefore() throws Exception {
        ThroughStore store = new ThroughStore(10);
        RecordingEndpointFactory beans = RecordingEndpointFactory.batches(b -> BatchResult.consumed()).transacted();

        BatchResult result = delivery(beans, Optional.of(store)).onMessages(batch(0, 3));

        assertThat(result.firstFailed()).isEmpty();
        assertThat(beans.batches()).isEmpty();
        assertThat(store.claims).isEmpty();
    }

    @Test
    void shouldClaimTheWholeBatchWhenTheBeanThrowsAndItsTransactionCommitsAnyway() throws Exception {
        ThroughStore store = new ThroughStore(0);
        RecordingEndpointFactory beans = RecordingEndpointFactory.batches(b -> {
            throw new Exception("an application exception: the container commits");
        }).transacted();

        BatchResult result = delivery(beans, Optional.of(store)).onMessages(batch(0, 3));

        assertThat(store.claims).containsExactly("2:claimed");
        assertThat(beans.commits()).isEqualTo(1);
        assertThat(result.firstFailed()).as("acknowledged with its transaction").isEmpty();
    }

    @Test
    void shouldRollBackABatchWhoseOffsetsAnotherTransactionClaimedFirst() {
        ThroughStore store = new ThroughStore(0);
        store.otherWasFirst = true;
        RecordingEndpointFactory beans = RecordingEndpointFactory.batches(b -> BatchResult.consumed()).transacted();

        assertThatThrownBy(() -> delivery(beans, Optional.of(store)).onMessages(batch(0, 3)))
                .hasMessageContaining("FERRY-RA-0225");

        assertThat(beans.rollbacks()).isEqualTo(1);
        assertThat(beans.commits()).isZero();
    }

    @Test
    void shouldDeliverAWholeBatchAgainWhenItsTransactionRollsBack() {
        RecordingEndpointFactory beans = RecordingEndpointFactory.batches(b -> {
            RecordingEndpointFactory.setRollbackOnly();
            return BatchResult.consumed();
        }).transacted();

        assertThatThrownBy(() -> delivery(beans, Optional.empty()).onMessages(batch(0, 2)))
                .hasMessageContaining("FERRY-RA-0214");
        assertThat(beans.rollbacks()).isEqualTo(1);
    }
}
