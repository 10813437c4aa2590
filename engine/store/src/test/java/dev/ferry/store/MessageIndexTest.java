package dev.ferry.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.format.ManualClock;
import dev.ferry.format.MessageProperties;
import dev.ferry.format.OffsetMessageId;
import dev.ferry.format.StoredMessageView;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MessageIndexTest {
    @TempDir
    Path dir;
    private final ManualClock clock = new ManualClock(1_700_000_000_000L);

    @Test
    void shouldQueryMessagesByKeyWithinTimeRange() {
        try (MessageStore store = MessageStore.builder(TestMessages.smallConfig(dir).build()).clock(clock).open()) {
            long start = clock.millis();
            for (int i = 0; i < 30; i++) {
                store.append(TestMessages.message("Orders", i % 2, "order " + i, null, "order-" + (i % 3) + " all"));
                clock.advance(Duration.ofSeconds(10));
            }
            store.append(TestMessages.message("Other", 0, "not an order", null, "order-0"));
            await().atMost(Duration.ofSeconds(5)).until(() -> store.dispatchedOffset() == store.commitLogEndOffset());

            assertThat(store.queryMessagesByKey("Orders", "order-0", 100, 0, Long.MAX_VALUE).views())
                .hasSize(10).allMatch(v -> v.topic().equals("Orders"));
            assertThat(store.queryMessagesByKey("Orders", "all", 100, 0, Long.MAX_VALUE).views()).hasSize(30);
            assertThat(store.queryMessagesByKey("Orders", "all", 5, 0, Long.MAX_VALUE).views()).hasSize(5);
            assertThat(store.queryMessagesByKey("Orders", "order-1", 100, start + 100_000, start + 200_000).views())
                .extracting(v -> TestMessages.text(v.body()))
                .containsExactlyInAnyOrder("order 10", "order 13", "order 16", "order 19");
            assertThat(store.queryMessagesByKey("Orders", "missing", 100, 0, Long.MAX_VALUE).views()).isEmpty();
        }
    }

    @Test
    void shouldQueryByUniqueKey() {
        try (MessageStore store = MessageStore.builder(TestMessages.smallConfig(dir).build()).clock(clock).open()) {
            MessageToStore message = TestMessages.message("U", 0, "unique");
            AppendResult result = store.append(message);
            await().atMost(Duration.ofSeconds(5)).until(() -> store.dispatchedOffset() == store.commitLogEndOffset());
            String uniqueKey = MessageProperties.find(message.properties(), MessageProperties.UNIQ_KEY);
            assertThat(store.queryMessagesByKey("U", uniqueKey, 10, 0, Long.MAX_VALUE).views())
                .extracting(StoredMessageView::physicalOffset).containsExactly(result.physicalOffset());
        }
    }

    @Test
    void shouldRollIndexFilesWhenFullAndStillFindOldKeys() throws IOException {
        StoreConfig config = TestMessages.smallConfig(dir).indexHashSlots(16).indexMaxEntries(40).build();
        try (MessageStore store = MessageStore.builder(config).clock(clock).open()) {
            for (int i = 0; i < 100; i++) {
                store.append(TestMessages.message("Roll", 0, "m" + i, null, "k" + i));
                clock.advance(Duration.ofMillis(1));
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> store.dispatchedOffset() == store.commitLogEndOffset());
            assertThat(store.queryMessagesByKey("Roll", "k3", 10, 0, Long.MAX_VALUE).views()).hasSize(1);
            assertThat(store.queryMessagesByKey("Roll", "k97", 10, 0, Long.MAX_VALUE).views()).hasSize(1);
        }
        try (Stream<Path> files = Files.list(dir.resolve("index"))) {
            assertThat(files.map(p -> p.getFileName().toString()).toList())
                .hasSizeGreaterThanOrEqualTo(5).allMatch(n -> n.matches("\\d{17}"));
        }
    }

    @Test
    void shouldViewMessageByOffsetIdAndRejectMalformedIds() {
        try (MessageStore store = MessageStore.builder(TestMessages.smallConfig(dir).build()).clock(clock).open()) {
            store.append(TestMessages.message("V", 0, "one"));
            AppendResult second = store.append(TestMessages.message("V", 0, "two"));
            assertThat(store.messageByOffsetId(second.offsetMessageId())).get()
                .extracting(v -> TestMessages.text(v.body())).isEqualTo("two");
            assertThat(store.messageByOffsetId(OffsetMessageId.encode(TestMessages.STORE_HOST, 3))).isEmpty();
            assertThat(OffsetMessageId.decode(second.offsetMessageId()).physicalOffset())
                .isEqualTo(second.physicalOffset());
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.messageByOffsetId("XYZ"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("XYZ");
        }
    }
}
