package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.api.InvalidMessageException;
import dev.ferry.api.Message;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Bad input is rejected with a clear exception before anything reaches the network. */
class ValidationTest {

    @Test
    void shouldRejectAnInvalidTopicName() {
        assertThatThrownBy(() -> Message.builder("bad topic!").body(new byte[] {1}).build())
                .isInstanceOf(InvalidMessageException.class).hasMessageContaining("bad topic!")
                .hasMessageContaining("^[%|a-zA-Z0-9_-]+$");
        assertThatThrownBy(() -> Message.builder("t".repeat(128)).body(new byte[] {1}).build())
                .isInstanceOf(InvalidMessageException.class).hasMessageContaining("127");
    }

    @Test
    void shouldRejectReservedPropertyNamesAndSeparators() {
        assertThatThrownBy(() -> Message.builder("T").body(new byte[] {1}).property("TAGS", "x").build())
                .isInstanceOf(InvalidMessageException.class).hasMessageContaining("'TAGS' is reserved");
        assertThatThrownBy(() -> Message.builder("T").body(new byte[] {1}).property("a", "x\u0001y").build())
                .isInstanceOf(InvalidMessageException.class).hasMessageContaining("separator");
        assertThatThrownBy(() -> Message.builder("T").body(new byte[] {1}).delayLevel(19).build())
                .isInstanceOf(InvalidMessageException.class).hasMessageContaining("delayLevel 19");
    }

    @Test
    void shouldRejectAnEmptyOrOversizedBody() {
        assertThatThrownBy(() -> Message.builder("T").body(new byte[0]).build())
                .isInstanceOf(InvalidMessageException.class).hasMessageContaining("must not be empty");
        assertThatThrownBy(() -> Message.builder("T").body(new byte[Message.MAX_BODY_SIZE + 1]).build())
                .isInstanceOf(InvalidMessageException.class).hasMessageContaining("4194304");
    }

    @Test
    void shouldRejectABodyOverTheProducersLimitWithoutContactingAnyServer() {
        // Nothing listens on port 1: any network use would fail with a connection error instead.
        try (FerryClient client = new FerryClient(ClientConfig.builder("127.0.0.1:1").clientIp("127.0.0.1")
                .requestTimeout(Duration.ofMillis(200)).build())) {
            Producer producer = client.producer(ProducerConfig.builder("PG").maxMessageSize(1024).build());
            Message message = Message.builder("T").body(new byte[2048]).build();
            assertThatThrownBy(() -> producer.send(message)).isInstanceOf(InvalidMessageException.class)
                    .hasMessageContaining("maxMessageSize 1024");
            assertThatThrownBy(() -> producer.sendOneway(message)).isInstanceOf(InvalidMessageException.class);
            assertThat(producer.sendAsync(message)).isCompletedExceptionally();
        }
    }

    @Test
    void shouldRefuseABatchWithADelayedMessageWithoutContactingAnyServer() {
        // Nothing listens on port 1: any network use would fail with a connection error instead.
        try (FerryClient client = new FerryClient(ClientConfig.builder("127.0.0.1:1").clientIp("127.0.0.1")
                .requestTimeout(Duration.ofMillis(200)).build())) {
            Producer producer = client.producer(ProducerConfig.builder("PG").build());
            Message plain = Message.builder("T").body(new byte[] {1}).build();
            Message timed = plain.toBuilder().deliverAt(Instant.parse("2026-12-05T08:00:00Z")).build();
            Message delayed = plain.toBuilder().deliverAfter(Duration.ofSeconds(3)).build();
            Message levelled = plain.toBuilder().delayLevel(2).build();

            assertThatThrownBy(() -> producer.send(List.of(plain, timed)))
                    .isInstanceOf(InvalidMessageException.class)
                    .hasMessageContaining("batched messages cannot be delayed")
                    .hasMessageContaining("deliverAt 2026-12-05T08:00:00Z");
            assertThatThrownBy(() -> producer.send(List.of(delayed, plain)))
                    .isInstanceOf(InvalidMessageException.class).hasMessageContaining("deliverAfter PT3S");
            assertThatThrownBy(() -> producer.send(List.of(plain, levelled)))
                    .isInstanceOf(InvalidMessageException.class).hasMessageContaining("delayLevel 2");
            assertThat(producer.sendAsync(List.of(plain, delayed))).isCompletedExceptionally();
        }
    }

    @Test
    void shouldNameTheBadKeyAndValueOfAConfig() {
        assertThatThrownBy(() -> ProducerConfig.builder("PG").retriesWhenSendFailed(-1).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'retriesWhenSendFailed' = '-1'");
        assertThatThrownBy(() -> PushConsumerConfig.builder("CG").build())
                .hasMessageContaining("'subscriptions'");
        assertThatThrownBy(() -> ClientConfig.builder("no-port").build())
                .hasMessageContaining("'nameServerAddresses' = 'no-port'");
    }

    @Test
    void shouldRefuseASecondConsumerOfOneGroupInOneClient() {
        try (FerryClient client = new FerryClient(ClientConfig.builder("127.0.0.1:1").clientIp("127.0.0.1")
                .requestTimeout(Duration.ofMillis(200)).build())) {
            PushConsumerConfig config = PushConsumerConfig.builder("CG").subscribe("T", "*").build();
            PushConsumer first = client.pushConsumer(config, message -> { });
            assertThatThrownBy(() -> client.pushConsumer(config, message -> { }))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("'CG' already runs");
            first.close();
            client.pushConsumer(config, message -> { }).close();
        }
    }
}
