package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.remoting.RemoteChannel;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RemotingException;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Replies pushed to requesters' connections: bounded in bytes in flight, and every drop counted by its reason. */
class ReplyPushesTest {
    /** A requester's connection whose client answers each push when the test says. */
    private static final class Requester implements RemoteChannel {
        final List<CompletableFuture<RemotingCommand>> pushes = new CopyOnWriteArrayList<>();

        @Override
        public String id() {
            return "requester";
        }

        @Override
        public SocketAddress remoteAddress() {
            return new InetSocketAddress("127.0.0.1", 1);
        }

        @Override
        public boolean isActive() {
            return true;
        }

        @Override
        public CompletableFuture<RemotingCommand> invokeAsync(RemotingCommand request, Duration timeout) {
            CompletableFuture<RemotingCommand> answer = new CompletableFuture<>();
            pushes.add(answer);
            return answer;
        }

        @Override
        public RemotingCommand invokeSync(RemotingCommand request, Duration timeout) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void invokeOneway(RemotingCommand request, Duration timeout) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void close() {
        }
    }

    private static RemotingCommand push(int bodyBytes) {
        return RemotingCommand.request(RequestCode.PUSH_REPLY_MESSAGE_TO_CLIENT).body(new byte[bodyBytes]).build();
    }

    private static RemotingCommand answer(int code) {
        return RemotingCommand.responseTo(push(1), code).build();
    }

    @Test
    void shouldRefuseAPushBeyondTheBytesInFlightUntilTheFirstIsAnswered() {
        ReplyPushes pushes = new ReplyPushes(1_500);
        Requester requester = new Requester();

        CompletableFuture<ReplyPushes.Outcome> first = pushes.push("c", Optional.of(requester), push(1_000), 10);
        ReplyPushes.Outcome second = pushes.push("c", Optional.of(requester), push(1_000), 10).join();

        assertThat(second.pushed()).isFalse();
        assertThat(second.code()).isEqualTo(ResponseCode.SYSTEM_BUSY);
        assertThat(pushes.dropped()).containsEntry("busy", 1L);
        assertThat(first).isNotDone();
        requester.pushes.get(0).complete(answer(ResponseCode.SUCCESS));
        assertThat(first.join().pushed()).isTrue();
        assertThat(pushes.bytesInFlight()).isZero();
        CompletableFuture<ReplyPushes.Outcome> third = pushes.push("c", Optional.of(requester), push(1_000), 10);
        assertThat(third).as("taken once the first was answered").isNotDone();
        assertThat(pushes.pushed()).isOne();
    }

    @Test
    void shouldDropAndCountAPushTheRequestersClientRefusesOrNeverTakes() {
        ReplyPushes pushes = new ReplyPushes(1 << 20);
        Requester requester = new Requester();

        CompletableFuture<ReplyPushes.Outcome> refused = pushes.push("c", Optional.of(requester), push(10), 10);
        CompletableFuture<ReplyPushes.Outcome> lost = pushes.push("c", Optional.of(requester), push(10), 10);
        requester.pushes.get(0).complete(answer(ResponseCode.SYSTEM_ERROR));
        requester.pushes.get(1).completeExceptionally(new RemotingException("timed out"));

        assertThat(refused.join().code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(refused.join().remark()).isEqualTo("push reply message to cfail.");
        assertThat(lost.join().pushed()).isFalse();
        assertThat(pushes.dropped()).containsEntry("push_failed", 2L);
        assertThat(pushes.bytesInFlight()).isZero();
    }

    @Test
    void shouldDropAndCountAReplyWhoseRequesterHasNoConnectionHere() {
        ReplyPushes pushes = new ReplyPushes(1 << 20);

        ReplyPushes.Outcome outcome = pushes.push("gone@client", Optional.empty(), push(10), 10).join();

        assertThat(outcome.code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(outcome.remark()).isEqualTo("push reply message fail, channel of <gone@client> not found.");
        assertThat(pushes.dropped()).containsEntry("requester_gone", 1L).containsEntry("busy", 0L);
    }
}
