package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.api.InvalidMessageException;
import dev.ferry.api.Message;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.api.Replies;
import dev.ferry.api.RetriableException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Ferry's {@link Producer#request} answered by a consumer that replies with {@link Replies#to}, against the cluster
 * under test (Apache 5.3.3's broker, whose push Ferry's client takes as Apache's does, or ferry-server).
 */
class RequestReplyTest extends AgainstCluster {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void shouldCompleteARequestWithTheReplyItsConsumerSendsWithReplies() throws Exception {
        String topic = ClientTestSupport.unique("Requests");
        Producer requester = producer();
        Producer replier = newClient().producer(ProducerConfig.builder(ClientTestSupport.unique("PG")).build());
        requester.send(Message.builder(topic).body(utf8("creates the topic")).build());
        PushConsumer consumer = client.pushConsumer(PushConsumerConfig.builder(ClientTestSupport.unique("CG"))
                .subscribe(topic, "*").consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).build(), request -> {
                    if (request.property("CORRELATION_ID").isPresent()) {
                        replier.send(Replies.to(request).body(utf8("echo: " + new String(request.body(),
                                StandardCharsets.UTF_8))).build());
                    }
                });
        try {
            ReceivedMessage reply = requester.request(Message.builder(topic).body(utf8("ping")).build(), TIMEOUT)
                    .get(TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS);

            assertThat(new String(reply.body(), StandardCharsets.UTF_8)).isEqualTo("echo: ping");
            assertThat(reply.topic()).endsWith("_REPLY_TOPIC");
            assertThat(reply.property("MSG_TYPE")).contains("reply");
            assertThat(reply.property("REPLY_TO_CLIENT")).contains(client.clientId());
            assertThat(reply.property("TTL")).contains(Long.toString(TIMEOUT.toMillis()));
            assertThat(reply.property("ARRIVE_TIME")).isPresent();
        } finally {
            consumer.close();
        }
    }

    @Test
    void shouldFailARequestNobodyAnswersOnceItsTimeoutPasses() {
        String topic = ClientTestSupport.unique("Unanswered");
        Producer requester = producer();
        requester.send(Message.builder(topic).body(utf8("creates the topic")).build());

        CompletableFuture<ReceivedMessage> reply = requester.request(Message.builder(topic).body(utf8("hello?"))
                .build(), Duration.ofMillis(500));

        assertThatThrownBy(() -> reply.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(RetriableException.class)
                .hasMessageContaining("within 500 ms");
        assertThat(client.replies().size()).isZero();
    }

    @Test
    void shouldRefuseToReplyToAMessageThatIsNoRequest() {
        ReceivedMessage plain = new ReceivedMessage("Orders", utf8("x"), Map.of("CLUSTER", "DefaultCluster"), "id",
                "broker-a", 0, 0, 0, 0, 0, 0);

        assertThatThrownBy(() -> Replies.to(plain)).isInstanceOf(InvalidMessageException.class)
                .hasMessageContaining("no property CORRELATION_ID");
        ReceivedMessage request = new ReceivedMessage("Orders", utf8("x"), Map.of("CLUSTER", "C1", "CORRELATION_ID",
                "c-1", "REPLY_TO_CLIENT", "10.0.0.1@app", "TTL", "3000"), "id", "broker-a", 0, 0, 0, 0, 0, 0);
        Message reply = Replies.to(request).body(utf8("y")).build();
        assertThat(reply.topic()).isEqualTo("C1_REPLY_TOPIC");
        assertThat(reply.properties()).containsEntry("CORRELATION_ID", "c-1")
                .containsEntry("REPLY_TO_CLIENT", "10.0.0.1@app").containsEntry("TTL", "3000")
                .containsEntry("MSG_TYPE", "reply");
        assertThat(Replies.isReply(reply)).isTrue();
    }

    @Test
    void shouldRefuseARequestWithoutAPositiveTimeout() {
        Message message = Message.builder("Any").body(utf8("x")).build();
        assertThatThrownBy(() -> producer().request(message, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("positive");
    }
}
