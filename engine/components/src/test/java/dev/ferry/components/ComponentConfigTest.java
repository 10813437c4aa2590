package dev.ferry.components;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.api.MessageModel;
import dev.ferry.client.ConsumeFromWhere;
import dev.ferry.client.PushConsumerConfig;
import dev.ferry.server.FerryServerConfig;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the components make of the configurations Configuration Admin hands them. */
class ComponentConfigTest {

    @Test
    void shouldReadTheServerFromFerryServersKeysAndLeaveTheFrameworksOut() {
        Map<String, Object> configuration = new HashMap<>(Map.of("storeDir", "/var/ferry", "namesrvPort", 19876,
                "brokerPort", "19911", "maxTopics", "100", "service.pid", "dev.ferry.server",
                "component.name", "dev.ferry.components.FerryServerComponent", "component.id", 7L));

        FerryServerConfig config = FerryServerComponent.config(configuration);

        assertThat(config.storeDir()).isEqualTo(Path.of("/var/ferry"));
        assertThat(config.nameServer().port()).isEqualTo(19876);
        assertThat(config.broker().port()).isEqualTo(19911);
    }

    @Test
    void shouldRefuseAServerWithoutAStoreOrWithAnUnknownKey() {
        assertThatThrownBy(() -> FerryServerComponent.config(Map.of("namesrvPort", "1")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("storeDir");
        assertThatThrownBy(() -> FerryServerComponent.config(Map.of("storeDir", "s", "brokerPrt", "1")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown key 'brokerPrt'");
    }

    @Test
    void shouldReadAConsumerFromTheActivationSpecsKeys() {
        Map<String, Object> configuration = new HashMap<>(Map.of("nameServer", "127.0.0.1:9876",
                "consumerGroup", "billing", "topic", "orders", "selectorType", "SQL92",
                "selectorExpression", "amount > 10", "consumeMode", "orderly",
                "consumeFromWhere", "CONSUME_FROM_FIRST_OFFSET", "maxConcurrency", 4,
                "allocateStrategy", "queue-id-modulo", "listener.target", "(ferry.listener=orders)"));
        configuration.put("fallbackAllocateStrategy", "averagely");

        ConsumerComponentConfig config = ConsumerComponentConfig.from(configuration);

        PushConsumerConfig consumer = config.consumer();
        assertThat(config.nameServer()).isEqualTo("127.0.0.1:9876");
        assertThat(consumer.group()).isEqualTo("billing");
        assertThat(consumer.subscriptions()).singleElement().satisfies(s -> {
            assertThat(s.topic()).isEqualTo("orders");
            assertThat(s.expressionType()).isEqualTo("SQL92");
            assertThat(s.expression()).isEqualTo("amount > 10");
        });
        assertThat(consumer.orderly()).isTrue();
        assertThat(consumer.consumeFromWhere()).isEqualTo(ConsumeFromWhere.FIRST_OFFSET);
        assertThat(consumer.consumeThreads()).isEqualTo(4);
        assertThat(consumer.messageModel()).isEqualTo(MessageModel.CLUSTERING);
        assertThat(consumer.allocateStrategy()).isEqualTo("queue-id-modulo");
        assertThat(consumer.fallbackAllocateStrategy()).contains("averagely");
        assertThat(config.localOffsetDirectory()).isEmpty();
    }

    @Test
    void shouldRefuseAConsumerNamingTheKeyThatIsMissingUnknownOrBad() {
        Map<String, Object> base = Map.of("nameServer", "127.0.0.1:9876", "consumerGroup", "billing",
                "topic", "orders");
        assertThatThrownBy(() -> ConsumerComponentConfig.from(Map.of("nameServer", "127.0.0.1:9876")))
                .hasMessageContaining("key 'consumerGroup' is required");
        assertThatThrownBy(() -> ConsumerComponentConfig.from(with(base, "topik", "x")))
                .hasMessageContaining("unknown key 'topik'");
        assertThatThrownBy(() -> ConsumerComponentConfig.from(with(base, "consumeMode", "SIDEWAYS")))
                .hasMessageContaining("invalid consumeMode = 'SIDEWAYS': must be CONCURRENTLY or ORDERLY");
        assertThatThrownBy(() -> ConsumerComponentConfig.from(with(base, "maxConcurrency", "many")))
                .hasMessageContaining("invalid maxConcurrency = 'many': must be an integer");
        assertThatThrownBy(() -> ConsumerComponentConfig.from(with(base, "messageModel", "everyone")))
                .hasMessageContaining("invalid messageModel = 'everyone': must be one of "
                        + "CLUSTERING, BROADCASTING");
        assertThatThrownBy(() -> ConsumerComponentConfig.from(with(base, "topic", " ")))
                .hasMessageContaining("key 'topic' is required");
    }

    private static Map<String, Object> with(Map<String, Object> base, String key, Object value) {
        Map<String, Object> copy = new HashMap<>(base);
        copy.put(key, value);
        return copy;
    }
}
