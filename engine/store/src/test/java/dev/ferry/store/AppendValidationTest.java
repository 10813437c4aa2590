package dev.ferry.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AppendValidationTest {
    @TempDir
    Path dir;

    @Test
    void shouldRejectOversizedBodyWithoutWriting() {
        try (MessageStore store = MessageStore.builder(TestMessages.smallConfig(dir).maxMessageBodySize(1000).build())
            .open()) {
            AppendResult result = store.append(MessageToStore.builder("T", 0, new byte[1001]).build());
            assertThat(result.status()).isEqualTo(AppendStatus.MESSAGE_TOO_LARGE);
            assertThat(result.detail()).contains("1001").contains("maxMessageBodySize");
            assertThat(store.commitLogEndOffset()).isZero();
        }
    }

    @Test
    void shouldRejectEntryLargerThanSegment() {
        try (MessageStore store = MessageStore.builder(TestMessages.smallConfig(dir).maxMessageBodySize(1 << 20)
            .build()).open()) {
            AppendResult result = store.append(MessageToStore.builder("T", 0, new byte[70_000]).build());
            assertThat(result.status()).isEqualTo(AppendStatus.MESSAGE_TOO_LARGE);
            assertThat(store.commitLogEndOffset()).isZero();
        }
    }

    @Test
    void shouldRejectPropertiesOverShortMaxValue() {
        try (MessageStore store = MessageStore.builder(TestMessages.smallConfig(dir).build()).open()) {
            AppendResult result = store.append(MessageToStore.builder("T", 0, new byte[1])
                .properties(Map.of("big", "v".repeat(Short.MAX_VALUE))).build());
            assertThat(result.status()).isEqualTo(AppendStatus.PROPERTIES_TOO_LARGE);
            assertThat(store.commitLogEndOffset()).isZero();
        }
    }

    @Test
    void shouldRefuseAZeroCharacterInPropertiesSoThatRecoveryKeepsEveryMessage() {
        long end;
        try (MessageStore store = MessageStore.builder(TestMessages.smallConfig(dir).build()).open()) {
            assertThat(store.append(MessageToStore.builder("T", 0, new byte[1]).build()).status())
                .isEqualTo(AppendStatus.PUT_OK);
            AppendResult zero = store.append(MessageToStore.builder("T", 0, new byte[1])
                .properties(Map.of("k", "a\u0000b")).build());
            assertThat(zero.status()).isEqualTo(AppendStatus.MESSAGE_ILLEGAL);
            assertThat(zero.detail()).contains("U+0000");
            assertThat(store.append(MessageToStore.builder("T", 0, new byte[1]).build()).status())
                .isEqualTo(AppendStatus.PUT_OK);
            end = store.commitLogEndOffset();
        }
        try (MessageStore reopened = MessageStore.builder(TestMessages.smallConfig(dir).build()).open()) {
            assertThat(reopened.commitLogEndOffset()).isEqualTo(end);
            assertThat(reopened.nextOffset("T", 0)).isEqualTo(2);
        }
    }

    @Test
    void shouldRejectTopicTooLongOrWithIllegalCharacters() {
        try (MessageStore store = MessageStore.builder(TestMessages.smallConfig(dir).build()).open()) {
            assertThat(store.append(MessageToStore.builder("T".repeat(Short.MAX_VALUE + 1), 0, new byte[1]).build())
                .status()).isEqualTo(AppendStatus.MESSAGE_ILLEGAL);
            assertThat(store.append(MessageToStore.builder("../etc", 0, new byte[1]).build()).status())
                .isEqualTo(AppendStatus.MESSAGE_ILLEGAL);
            assertThat(store.append(MessageToStore.builder("", 0, new byte[1]).build()).status())
                .isEqualTo(AppendStatus.MESSAGE_ILLEGAL);
            assertThat(store.append(MessageToStore.builder("T", -1, new byte[1]).build()).status())
                .isEqualTo(AppendStatus.MESSAGE_ILLEGAL);
            assertThat(store.commitLogEndOffset()).isZero();
        }
    }

    @Test
    void shouldRefuseAppendsAfterClose() {
        MessageStore store = MessageStore.builder(TestMessages.smallConfig(dir).build()).open();
        store.close();
        assertThat(store.append(TestMessages.message("T", 0, "late")).status())
            .isEqualTo(AppendStatus.SERVICE_NOT_AVAILABLE);
    }

    @Test
    void shouldNameBadKeyAndValueInConfigErrors() {
        assertThatThrownBy(() -> StoreConfig.builder(dir).commitLogSegmentSize(100).build())
            .isInstanceOf(IllegalArgumentException.class).hasMessage("store.commitLogSegmentSize=100: must be >= 4096");
        assertThatThrownBy(() -> StoreConfig.builder(dir).flushInterval(Duration.ZERO).build())
            .hasMessageContaining("store.flushInterval=PT0S");
        assertThatThrownBy(() -> StoreConfig.builder(dir).diskRejectRatio(0.5).build())
            .hasMessageContaining("store.diskRejectRatio=0.5");
    }
}
