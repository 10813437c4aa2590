package dev.ferry.strategies.offset;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.api.MessageModel;
import dev.ferry.api.MessageQueue;
import dev.ferry.spi.OffsetStore;
import dev.ferry.spi.OffsetStoreContext;
import dev.ferry.spi.PluginConfig;
import dev.ferry.spi.ReadOffsetType;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BrokerOffsetStoreTest {

    private static final MessageQueue Q0 = new MessageQueue("T", "broker-a", 0);
    private static final MessageQueue Q1 = new MessageQueue("T", "broker-a", 1);

    private final RecordingBrokers brokers = new RecordingBrokers();
    private final OffsetStore store = new BrokerOffsetStoreProvider().create(
            new OffsetStoreContext("g", "client", MessageModel.CLUSTERING, Path.of("unused"), brokers),
            PluginConfig.empty());

    @Test
    void shouldTellNotFoundFromFailure() {
        assertThat(store.read(Q0, ReadOffsetType.READ_FROM_STORE)).isEqualTo(OffsetStore.NO_OFFSET);

        brokers.unreachable.add(Q0);

        assertThat(store.read(Q0, ReadOffsetType.READ_FROM_STORE)).isEqualTo(OffsetStore.READ_FAILED);
    }

    @Test
    void shouldCacheWhatTheBrokerHasAndPreferMemoryWhenAsked() {
        brokers.offsets.put(Q0, 40L);

        assertThat(store.read(Q0, ReadOffsetType.READ_FROM_MEMORY)).isEqualTo(OffsetStore.NO_OFFSET);
        assertThat(store.read(Q0, ReadOffsetType.MEMORY_FIRST_THEN_STORE)).isEqualTo(40L);
        brokers.offsets.put(Q0, 10L);
        assertThat(store.read(Q0, ReadOffsetType.MEMORY_FIRST_THEN_STORE)).isEqualTo(40L);
        assertThat(store.read(Q0, ReadOffsetType.READ_FROM_STORE)).isEqualTo(10L);
    }

    @Test
    void shouldIgnoreLowerOffsetsWhenIncreaseOnly() {
        store.update(Q0, 50, true);
        store.update(Q0, 45, true);
        assertThat(store.read(Q0, ReadOffsetType.READ_FROM_MEMORY)).isEqualTo(50L);

        store.update(Q0, 45, false);
        assertThat(store.read(Q0, ReadOffsetType.READ_FROM_MEMORY)).isEqualTo(45L);
    }

    @Test
    void shouldCommitAssignedQueuesAndForgetTheOthers() {
        store.update(Q0, 7, false);
        store.update(Q1, 9, false);

        store.persistAll(Set.of(Q0));

        assertThat(brokers.offsets).isEqualTo(Map.of(Q0, 7L));
        assertThat(store.offsets("T")).isEqualTo(Map.of(Q0, 7L));
    }

    @Test
    void shouldKeepTheOffsetWhenACommitFails() {
        store.update(Q0, 7, false);
        brokers.unreachable.add(Q0);

        store.persist(Q0);

        assertThat(brokers.offsets).isEmpty();
        assertThat(store.read(Q0, ReadOffsetType.READ_FROM_MEMORY)).isEqualTo(7L);
        store.remove(Q0);
        assertThat(store.read(Q0, ReadOffsetType.READ_FROM_MEMORY)).isEqualTo(OffsetStore.NO_OFFSET);
    }
}
