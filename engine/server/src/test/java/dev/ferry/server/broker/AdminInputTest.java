package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.format.ManualClock;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What admin requests may change, and the clear refusal of anything else. */
class AdminInputTest {
    @TempDir
    Path dir;

    @Test
    void topicAttributesTakeApachesMessageTypeAndRefuseOthersByName() {
        assertThat(TopicAttributes.alter(Map.of(), "+message.type=FIFO", true)).containsEntry("message.type", "FIFO");
        assertThat(TopicAttributes.alter(Map.of("message.type", "FIFO"), "-message.type", false)).isEmpty();
        assertThat(TopicAttributes.alter(Map.of("message.type", "FIFO"), "", false))
                .containsEntry("message.type", "FIFO");
        assertThatThrownBy(() -> TopicAttributes.alter(Map.of(), "+queue.type=BatchCQ", true))
                .hasMessage("unsupported key: queue.type");
        assertThatThrownBy(() -> TopicAttributes.alter(Map.of(), "+message.type=MIXED", true))
                .hasMessage("MIXED message type is not supported.");
        assertThatThrownBy(() -> TopicAttributes.alter(Map.of(), "-message.type", true))
                .hasMessageContaining("only add attribute");
        assertThatThrownBy(() -> TopicAttributes.alter(Map.of(), "-message.type", false))
                .hasMessage("attempt to delete a nonexistent key: message.type");
        assertThatThrownBy(() -> TopicAttributes.alter(Map.of(), "message.type=FIFO", true))
                .hasMessageContaining("must start with + or -");
        assertThatThrownBy(() -> TopicAttributes.alter(Map.of(), "+" + "x".repeat(TopicAttributes.MAX_LENGTH), true))
                .hasMessageContaining("longer than");
    }

    private BrokerConfig config() {
        return BrokerConfig.builder(dir).build();
    }

    @Test
    void brokerSettingsChangeTheirKeysDurablyAndRefuseAnyOtherWithoutChangingAnything() {
        ManualClock clock = new ManualClock(1_700_000_000_000L);
        BrokerSettings settings = new BrokerSettings(dir, clock, config());
        assertThat(settings.update(Map.of("autoCreateTopicEnable", "false", "maxMessageSize", "1024"))).isEmpty();
        assertThat(settings.values().autoCreateTopicEnable()).isFalse();
        assertThat(settings.values().maxMessageSize()).isEqualTo(1024);

        assertThat(settings.update(Map.of("defaultTopicQueueNums", "2", "brokerName", "other")))
                .hasValueSatisfying(problem -> assertThat(problem).contains("brokerName cannot be changed"));
        assertThat(settings.values().defaultTopicQueueNums()).isNotEqualTo(2);
        assertThat(settings.update(Map.of("defaultTopicQueueNums", "0"))).isPresent();
        assertThat(settings.update(Map.of("autoCreateTopicEnable", "maybe"))).isPresent();

        BrokerSettings reopened = new BrokerSettings(dir, clock, config());
        assertThat(reopened.values()).isEqualTo(settings.values());
        assertThat(reopened.version().counter()).isEqualTo(1);
    }
}
