package dev.ferry.remoting;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.remoting.endpoint.RemotingClient;
import dev.ferry.remoting.endpoint.RemotingServer;
import dev.ferry.remoting.protocol.ResponseCode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A client with credentials signs every request it sends, and a server's guard sees them before processors. */
class RequestSigningTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final int ECHO = 9101;
    private static final int ASK_CLIENT = 9102;
    private static final int ANSWER = 9103;
    private static final int HELLO = 9104;
    private static final Credentials ALICE = new Credentials("alice", "alice-secret");

    private final ExecutorService pool = Executors.newFixedThreadPool(2);
    private final LinkedBlockingQueue<RemotingCommand> received = new LinkedBlockingQueue<>();
    private final AtomicInteger processed = new AtomicInteger();
    private final LinkedBlockingQueue<RemoteChannel> clients = new LinkedBlockingQueue<>();

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    private RemotingServer server() {
        RemotingServer server = new RemotingServer(RemotingServerConfig.builder().build());
        server.registerProcessor(ECHO, (ctx, request) -> {
            processed.incrementAndGet();
            received.add(request);
            return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build();
        }, pool);
        server.registerProcessor(HELLO, (ctx, request) -> {
            clients.add(ctx.channel());
            return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build();
        }, pool);
        server.registerProcessor(ANSWER, (ctx, request) -> {
            received.add(request);
            return null;
        }, pool);
        // only requests signed with alice's secret pass
        server.guard((channel, request) -> RequestSignature.verify(request, ALICE.secretKey()) ? null
                : RemotingCommand.responseTo(request, ResponseCode.NO_PERMISSION).remark("not alice").build());
        return server.start();
    }

    private static RemotingCommand echo() {
        return RemotingCommand.request(ECHO).extField("topic", "orders").body("hi".getBytes(StandardCharsets.UTF_8))
                .build();
    }

    @Test
    void signsRequestsAndTheGuardRefusesUnsignedOnesBeforeTheirProcessor() throws Exception {
        try (RemotingServer server = server();
             RemotingClient signed = new RemotingClient(RemotingClientConfig.builder().credentials(ALICE).build());
             RemotingClient unsigned = new RemotingClient(RemotingClientConfig.builder().build())) {
            String address = "127.0.0.1:" + server.port();
            assertThat(signed.invokeSync(address, echo(), TIMEOUT).code()).isEqualTo(ResponseCode.SUCCESS);
            RemotingCommand seen = received.take();
            assertThat(seen.extField(RequestSignature.ACCESS_KEY)).isEqualTo("alice");
            assertThat(seen.extFields().values()).noneMatch(v -> v.contains(ALICE.secretKey()));

            RemotingCommand refused = unsigned.invokeSync(address, echo(), TIMEOUT);
            assertThat(refused.code()).isEqualTo(ResponseCode.NO_PERMISSION);
            assertThat(refused.remark()).isEqualTo("not alice");
            assertThat(processed).hasValue(1);
            assertThat(server.refusedRequests()).isEqualTo(1);
        }
    }

    @Test
    void signsWhatItSendsBackOverAServersConnection() throws Exception {
        try (RemotingServer server = server();
             RemotingClient client = new RemotingClient(RemotingClientConfig.builder().credentials(ALICE).build())) {
            // the client answers a server's question with a oneway request of its own on the same connection,
            // as a producer answers a transaction check
            client.registerProcessor(ASK_CLIENT, (ctx, request) -> {
                ctx.channel().invokeOneway(RemotingCommand.request(ANSWER).extField("state", "commit").build(),
                        TIMEOUT);
                return null;
            }, pool);
            String address = "127.0.0.1:" + server.port();
            client.invokeSync(address, RemotingCommand.request(HELLO).build(), TIMEOUT);
            RemoteChannel toClient = clients.poll(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            assertThat(toClient).isNotNull();
            toClient.invokeOneway(RemotingCommand.request(ASK_CLIENT).build(), TIMEOUT);
            RemotingCommand answer = received.poll(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            assertThat(answer).isNotNull();
            assertThat(answer.code()).isEqualTo(ANSWER);
            assertThat(RequestSignature.verify(answer, ALICE.secretKey())).isTrue();
        }
    }

    @Test
    void verifiesAgainstEachSecretInTurnOnOneThread() {
        // one thread keeps its keyed MAC between checks: a change of secret must key it again, every time
        RemotingCommand byAlice = RequestSignature.sign(echo(), ALICE);
        RemotingCommand byBob = RequestSignature.sign(echo(), new Credentials("bob", "bob-secret"));
        for (int i = 0; i < 3; i++) {
            assertThat(RequestSignature.verify(byAlice, ALICE.secretKey())).isTrue();
            assertThat(RequestSignature.verify(byAlice, "bob-secret")).isFalse();
            assertThat(RequestSignature.verify(byBob, "bob-secret")).isTrue();
            assertThat(RequestSignature.verify(byBob, ALICE.secretKey())).isFalse();
        }
        RemotingCommand tampered = byAlice.toBuilder().extField("topic", "payments").build();
        assertThat(RequestSignature.verify(tampered, ALICE.secretKey())).isFalse();
        assertThat(RequestSignature.verify(byAlice, ALICE.secretKey())).isTrue();
    }
}
