package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.api.FerryException;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.api.RetriableException;
import dev.ferry.format.ManualClock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** Requests waiting for replies: bounded, timed out on the client's clock, cleaned up whatever ends them. */
class PendingRepliesTest {
    private final ManualClock clock = new ManualClock();
    private final PendingReplies pending = new PendingReplies(clock, 2);

    private static ReceivedMessage reply(String correlationId) {
        return new ReceivedMessage("C_REPLY_TOPIC", new byte[] {1}, Map.of("CORRELATION_ID", correlationId), "0",
                "127.0.0.1:10911", 0, 0, 0, 0, 0, 0);
    }

    @Test
    void shouldCompleteARequestWithTheReplyCarryingItsCorrelationId() {
        CompletableFuture<ReceivedMessage> request = pending.await("a", Duration.ofSeconds(1));
        ReceivedMessage reply = reply("a");

        assertThat(pending.complete("a", reply)).isTrue();
        assertThat(request).isCompletedWithValue(reply);
        assertThat(pending.size()).isZero();
    }

    @Test
    void shouldFailARequestOnlyOnceItsDeadlinePassesOnTheClock() {
        CompletableFuture<ReceivedMessage> request = pending.await("a", Duration.ofMillis(500));
        clock.advance(Duration.ofMillis(499));
        assertThat(pending.expire()).isZero();
        assertThat(request).isNotDone();

        clock.advance(Duration.ofMillis(1));
        assertThat(pending.expire()).isOne();
        assertThatThrownBy(request::join).isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(RetriableException.class).hasMessageContaining("no reply to request a within 500 ms");
        assertThat(pending.size()).isZero();
        assertThat(pending.complete("a", reply("a"))).as("a late reply is dropped").isFalse();
    }

    @Test
    void shouldRefuseARequestBeyondTheMostThatMayWaitUntilOneEnds() {
        pending.await("a", Duration.ofSeconds(1));
        pending.await("b", Duration.ofSeconds(1));

        assertThatThrownBy(pending.await("c", Duration.ofSeconds(1))::join).hasCauseInstanceOf(
                RetriableException.class).hasMessageContaining("already waits for 2 replies");
        pending.fail("a", new FerryException("send failed"));
        assertThat(pending.await("c", Duration.ofSeconds(1))).isNotDone();
    }

    @Test
    void shouldDropAReplyThatMatchesNoRequest() {
        CompletableFuture<ReceivedMessage> request = pending.await("a", Duration.ofSeconds(1));

        assertThat(pending.complete("unknown", reply("unknown"))).isFalse();
        assertThat(pending.complete(null, reply("a"))).isFalse();
        assertThat(request).isNotDone();
    }

    @Test
    void shouldFailEveryWaitingRequestAndRefuseNewOnesWhenClosed() {
        CompletableFuture<ReceivedMessage> request = pending.await("a", Duration.ofSeconds(1));

        pending.close();
        assertThatThrownBy(request::join).hasCauseInstanceOf(FerryException.class)
                .hasMessageContaining("closed before the reply");
        assertThat(pending.size()).isZero();
        assertThat(pending.await("b", Duration.ofSeconds(1))).isCompletedExceptionally();
    }
}
