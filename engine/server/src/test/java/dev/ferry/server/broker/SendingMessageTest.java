package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.MessageProperties;
import dev.ferry.store.MessageToStore;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SendingMessageTest {
    /** Properties as the broker stamps them: a name twice, the later winning. */
    private static final String AS_SENT = "KEYS\u0001a\u0002CLUSTER\u0001mine\u0002CLUSTER\u0001ClusterA\u0002";

    private static MessageToStore message(String properties) {
        return MessageToStore.builder("TopicA", 1, "body".getBytes(StandardCharsets.UTF_8)).properties(properties)
                .build();
    }

    @Test
    void shouldStoreTheMessageAsItCameWhenNoStepChangedIt() {
        MessageToStore sent = message(AS_SENT);

        SendingMessage routed = SendingMessage.of(sent).to("TopicB", 0);

        assertThat(routed.toStore().properties()).as("the properties untouched").isEqualTo(AS_SENT);
        assertThat(routed.toStore().topic()).isEqualTo("TopicB");
    }

    @Test
    void shouldReadThePropertiesOnceWithTheLaterValueOfANameWinning() {
        SendingMessage message = SendingMessage.of(message(AS_SENT));

        assertThat(message.property(MessageProperties.CLUSTER)).isEqualTo("ClusterA");
        assertThat(message.has("KEYS")).isTrue();
        assertThat(message.property("NONE")).isNull();
    }

    @Test
    void shouldWriteThePropertiesAgainInTheirFirstOrderWhenAStepChangedThem() {
        Map<String, String> changes = new HashMap<>();
        changes.put("KEYS", null);
        changes.put(MessageProperties.REAL_TOPIC, "TopicA");

        MessageToStore stored = SendingMessage.of(message(AS_SENT)).withProperties(changes).toStore();

        assertThat(stored.properties()).isEqualTo("CLUSTER\u0001ClusterA\u0002REAL_TOPIC\u0001TopicA\u0002");
    }

    @Test
    void shouldLeaveTheMessageItWasMadeFromUnchanged() {
        SendingMessage original = SendingMessage.of(message(AS_SENT));

        original.withProperties(Map.of("KEYS", "b")).withSysFlag(4).to("TopicC", 2);

        assertThat(original.property("KEYS")).isEqualTo("a");
        assertThat(original.sysFlag()).isZero();
        assertThat(original.topic()).isEqualTo("TopicA");
        assertThat(original.toStore().properties()).isEqualTo(AS_SENT);
    }
}
