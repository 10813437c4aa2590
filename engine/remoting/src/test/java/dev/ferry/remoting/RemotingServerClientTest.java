package dev.ferry.remoting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ferry.remoting.endpoint.RemotingClient;
import dev.ferry.remoting.endpoint.RemotingServer;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.SerializeType;
import dev.ferry.remoting.protocol.header.GetConsumerListByGroupRequestHeader;
import dev.ferry.remoting.protocol.header.NotifyConsumerIdsChangedRequestHeader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RemotingServerClientTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final int ECHO = 9001;

    private final ExecutorService processorPool = Executors.newFixedThreadPool(2, r -> new Thread(r, "processor"));
    private RemotingServer server;
    private RemotingClient client;

    private RemotingServer startServer(RemotingServerConfig config) {
        server = new RemotingServer(config);
        server.registerProcessor(ECHO, (ctx, request) -> RemotingCommand.responseTo(request, ResponseCode.SUCCESS)
                .remark(Thread.currentThread().getName()).body(request.body()).build(), processorPool);
        return server.start();
    }

    /** Makes the server hold every PULL_MESSAGE unanswered; the test answers through the contexts. */
    private BlockingQueue<RequestContext> holdPulls() {
        BlockingQueue<RequestContext> held = new LinkedBlockingQueue<>();
        server.registerProcessor(RequestCode.PULL_MESSAGE, (ctx, request) -> {
            held.add(ctx);
            return null;
        }, processorPool);
        return held;
    }

    private String address() {
        return "127.0.0.1:" + server.port();
    }

    private static RemotingCommand echo(String text) {
        return RemotingCommand.request(ECHO).body(text.getBytes(StandardCharsets.UTF_8)).build();
    }

    @AfterEach
    void tearDown() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
        processorPool.shutdownNow();
    }

    @Test
    void shouldProcessTheRequestsTheInlineRulePicksOnTheEventLoopAndTheOthersOnTheExecutor() {
        startServer(RemotingServerConfig.builder().build());
        int code = 9002;
        server.registerProcessor(code, (ctx, request) -> RemotingCommand.responseTo(request, ResponseCode.SUCCESS)
                .remark(Thread.currentThread().getName()).build(), processorPool, request -> {
                    if ("boom".equals(request.extField("inline"))) {
                        throw new IllegalArgumentException("unreadable");
                    }
                    return "yes".equals(request.extField("inline"));
                });
        client = new RemotingClient(RemotingClientConfig.builder().build());

        RemotingCommand inline = client.invokeSync(address(), RemotingCommand.request(code).extField("inline", "yes")
                .build(), TIMEOUT);
        RemotingCommand handedOff = client.invokeSync(address(), RemotingCommand.request(code)
                .extField("inline", "no").build(), TIMEOUT);
        RemotingCommand ruleFailed = client.invokeSync(address(), RemotingCommand.request(code)
                .extField("inline", "boom").build(), TIMEOUT);

        assertThat(inline.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(inline.remark()).as("a thread of the server's event loops").startsWith("ferry-remoting-server");
        assertThat(handedOff.remark()).isEqualTo("processor");
        assertThat(ruleFailed.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(ruleFailed.remark()).as("a rule that fails hands the request off").isEqualTo("processor");
    }

    @Test
    void shouldAnswerSyncCallsOnTheProcessorsExecutor() {
        startServer(RemotingServerConfig.builder().build());
        client = new RemotingClient(RemotingClientConfig.builder().build());
        RemotingCommand response = client.invokeSync(address(), echo("hi"), TIMEOUT);
        assertThat(response.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(new String(response.body(), StandardCharsets.UTF_8)).isEqualTo("hi");
        assertThat(response.remark()).isEqualTo("processor");
    }

    @Test
    void shouldAnswerAsyncCallsOffTheEventLoop() throws Exception {
        startServer(RemotingServerConfig.builder().build());
        client = new RemotingClient(RemotingClientConfig.builder().build());
        List<CompletableFuture<RemotingCommand>> futures = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 100; i++) {
            futures.add(client.invokeAsync(address(), echo("m" + i), TIMEOUT));
        }
        AtomicReference<String> callbackThread = new AtomicReference<>();
        futures.get(0).thenRun(() -> callbackThread.compareAndSet(null, Thread.currentThread().getName()))
                .get(5, TimeUnit.SECONDS);
        for (int i = 0; i < 100; i++) {
            assertThat(new String(futures.get(i).get(5, TimeUnit.SECONDS).body(), StandardCharsets.UTF_8))
                    .isEqualTo("m" + i);
        }
        assertThat(callbackThread.get()).doesNotContain("nioEventLoop");
    }

    @Test
    void shouldDeliverOnewayRequestsWithoutAnswering() throws Exception {
        startServer(RemotingServerConfig.builder().build());
        BlockingQueue<RemotingCommand> received = new LinkedBlockingQueue<>();
        server.registerProcessor(RequestCode.UPDATE_CONSUMER_OFFSET, (ctx, request) -> {
            received.add(request);
            return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build(); // dropped: oneway
        }, processorPool);
        client = new RemotingClient(RemotingClientConfig.builder().build());
        client.invokeOneway(address(), RemotingCommand.request(RequestCode.UPDATE_CONSUMER_OFFSET)
                .extField("commitOffset", "7").build(), TIMEOUT);
        RemotingCommand request = received.poll(5, TimeUnit.SECONDS);
        assertThat(request).isNotNull();
        assertThat(request.isOneway()).isTrue();
        assertThat(request.extField("commitOffset")).isEqualTo("7");
        // the connection still serves normal calls afterwards: no stray response confused it
        assertThat(client.invokeSync(address(), echo("after"), TIMEOUT).code()).isZero();
    }

    @Test
    void shouldAnswerUnknownCodesWithRequestCodeNotSupported() {
        startServer(RemotingServerConfig.builder().build());
        client = new RemotingClient(RemotingClientConfig.builder().build());
        RemotingCommand response = client.invokeSync(address(), RemotingCommand.request(12345).build(), TIMEOUT);
        assertThat(response.code()).isEqualTo(ResponseCode.REQUEST_CODE_NOT_SUPPORTED);
        assertThat(response.remark()).contains("12345");
    }

    @Test
    void shouldAnswerSystemErrorWhenTheProcessorThrows() {
        startServer(RemotingServerConfig.builder().build());
        server.registerProcessor(RequestCode.GET_CONSUMER_LIST_BY_GROUP, (ctx, request) -> {
            request.header(GetConsumerListByGroupRequestHeader.class); // lacks consumerGroup
            return null;
        }, processorPool);
        client = new RemotingClient(RemotingClientConfig.builder().build());
        RemotingCommand response = client.invokeSync(address(),
                RemotingCommand.request(RequestCode.GET_CONSUMER_LIST_BY_GROUP).build(), TIMEOUT);
        assertThat(response.code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(response.remark()).contains("consumerGroup");
    }

    @Test
    void shouldAnswerSystemBusyWhenTheProcessorsExecutorIsFull() throws Exception {
        startServer(RemotingServerConfig.builder().build());
        CountDownLatch release = new CountDownLatch(1);
        ThreadPoolExecutor tiny = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(1));
        try {
            server.registerProcessor(RequestCode.PULL_MESSAGE, (ctx, request) -> {
                release.await(10, TimeUnit.SECONDS);
                return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build();
            }, tiny);
            client = new RemotingClient(RemotingClientConfig.builder().build());
            RemotingCommand pull = RemotingCommand.request(RequestCode.PULL_MESSAGE).build();
            CompletableFuture<RemotingCommand> running = client.invokeAsync(address(), pull, TIMEOUT);
            await().atMost(TIMEOUT).until(() -> tiny.getActiveCount() == 1);
            CompletableFuture<RemotingCommand> queued = client.invokeAsync(address(), pull, TIMEOUT);
            await().atMost(TIMEOUT).until(() -> tiny.getQueue().size() == 1);
            RemotingCommand rejected = client.invokeSync(address(), pull, TIMEOUT);
            assertThat(rejected.code()).isEqualTo(ResponseCode.SYSTEM_BUSY);
            release.countDown();
            assertThat(running.get(5, TimeUnit.SECONDS).code()).isZero();
            assertThat(queued.get(5, TimeUnit.SECONDS).code()).isZero();
        } finally {
            release.countDown();
            tiny.shutdownNow();
        }
    }

    /** A pull the server holds unanswered, and the context to answer it through. */
    private record HeldPull(CompletableFuture<RemotingCommand> pull, RequestContext context) {
    }

    private HeldPull holdOnePull() throws InterruptedException {
        startServer(RemotingServerConfig.builder().build());
        BlockingQueue<RequestContext> held = holdPulls();
        client = new RemotingClient(RemotingClientConfig.builder().build());
        CompletableFuture<RemotingCommand> pull = client.invokeAsync(address(),
                RemotingCommand.request(RequestCode.PULL_MESSAGE).build(), TIMEOUT);
        RequestContext ctx = held.poll(5, TimeUnit.SECONDS);
        assertThat(ctx).isNotNull();
        return new HeldPull(pull, ctx);
    }

    @Test
    void shouldLetProcessorsAnswerLater() throws Exception {
        HeldPull held = holdOnePull();
        CompletableFuture<RemotingCommand> pull = held.pull();
        assertThat(pull).isNotDone();
        held.context().respond(RemotingCommand.request(ResponseCode.PULL_NOT_FOUND).build());
        RemotingCommand response = pull.get(5, TimeUnit.SECONDS);
        assertThat(response.isResponse()).isTrue();
        assertThat(response.code()).isEqualTo(ResponseCode.PULL_NOT_FOUND);
    }

    @Test
    void shouldDeliverAnswersGivenWhileClosingBeforeTheConnectionsClose() throws Exception {
        HeldPull held = holdOnePull();

        server.close(() -> held.context().respond(RemotingCommand.request(ResponseCode.PULL_NOT_FOUND).build()));

        assertThat(held.pull().get(5, TimeUnit.SECONDS).code()).isEqualTo(ResponseCode.PULL_NOT_FOUND);
    }

    @Test
    void shouldFailSyncAndAsyncCallsThatTimeOut() {
        startServer(RemotingServerConfig.builder().build());
        server.registerProcessor(RequestCode.PULL_MESSAGE, (ctx, request) -> null, processorPool); // never answers
        client = new RemotingClient(RemotingClientConfig.builder().scanInterval(Duration.ofMillis(50)).build());
        RemotingCommand pull = RemotingCommand.request(RequestCode.PULL_MESSAGE).build();
        assertThatThrownBy(() -> client.invokeSync(address(), pull, Duration.ofMillis(200)))
                .isInstanceOf(RemotingTimeoutException.class)
                .matches(e -> ((RemotingException) e).isRetriable());
        CompletableFuture<RemotingCommand> async = client.invokeAsync(address(), pull, Duration.ofMillis(200));
        await().atMost(TIMEOUT).until(async::isDone);
        assertThat(async).isCompletedExceptionally();
        assertThatThrownBy(async::join).hasCauseInstanceOf(RemotingTimeoutException.class);
    }

    @Test
    void shouldLimitAsyncRequestsInFlight() throws Exception {
        startServer(RemotingServerConfig.builder().build());
        BlockingQueue<RequestContext> held = holdPulls();
        client = new RemotingClient(RemotingClientConfig.builder().asyncPermits(2).build());
        RemotingCommand pull = RemotingCommand.request(RequestCode.PULL_MESSAGE).build();
        CompletableFuture<RemotingCommand> first = client.invokeAsync(address(), pull, TIMEOUT);
        CompletableFuture<RemotingCommand> second = client.invokeAsync(address(), pull, TIMEOUT);
        CompletableFuture<RemotingCommand> third = client.invokeAsync(address(), pull, Duration.ofMillis(100));
        assertThatThrownBy(third::join).hasCauseInstanceOf(RemotingTooManyRequestsException.class);
        for (int i = 0; i < 2; i++) {
            RequestContext ctx = held.poll(5, TimeUnit.SECONDS);
            assertThat(ctx).isNotNull();
            ctx.respond(RemotingCommand.request(ResponseCode.SUCCESS).build());
        }
        assertThat(first.get(5, TimeUnit.SECONDS).code()).isZero();
        assertThat(second.get(5, TimeUnit.SECONDS).code()).isZero();
        // permits came back
        CompletableFuture<RemotingCommand> fourth = client.invokeAsync(address(), pull, TIMEOUT);
        held.poll(5, TimeUnit.SECONDS).respond(RemotingCommand.request(ResponseCode.SUCCESS).build());
        assertThat(fourth.get(5, TimeUnit.SECONDS).code()).isZero();
    }

    @Test
    void shouldLetTheServerCallAClientOverItsConnection() throws Exception {
        startServer(RemotingServerConfig.builder().build());
        BlockingQueue<RemoteChannel> clients = new LinkedBlockingQueue<>();
        server.registerProcessor(RequestCode.HEART_BEAT, (ctx, request) -> {
            clients.add(ctx.channel());
            return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build();
        }, processorPool);
        client = new RemotingClient(RemotingClientConfig.builder().build());
        BlockingQueue<String> notified = new LinkedBlockingQueue<>();
        client.registerProcessor(RequestCode.NOTIFY_CONSUMER_IDS_CHANGED, (ctx, request) -> {
            notified.add(request.header(NotifyConsumerIdsChangedRequestHeader.class).consumerGroup());
            return null;
        }, processorPool);
        client.registerProcessor(ECHO, (ctx, request) ->
                RemotingCommand.responseTo(request, ResponseCode.SUCCESS).body(request.body()).build(), processorPool);
        client.invokeSync(address(), RemotingCommand.request(RequestCode.HEART_BEAT).build(), TIMEOUT);
        RemoteChannel channel = clients.poll(5, TimeUnit.SECONDS);
        assertThat(channel).isNotNull();
        channel.invokeOneway(RemotingCommand.request(RequestCode.NOTIFY_CONSUMER_IDS_CHANGED,
                new NotifyConsumerIdsChangedRequestHeader("CG", null)).build(), TIMEOUT);
        assertThat(notified.poll(5, TimeUnit.SECONDS)).isEqualTo("CG");
        RemotingCommand answer = channel.invokeSync(echo("from broker"), TIMEOUT);
        assertThat(new String(answer.body(), StandardCharsets.UTF_8)).isEqualTo("from broker");
    }

    @Test
    void shouldReportConnectionEventsAndCloseIdleConnections() throws Exception {
        startServer(RemotingServerConfig.builder().maxIdleTime(Duration.ofMillis(300)).build());
        BlockingQueue<ConnectionEvent.Type> events = new LinkedBlockingQueue<>();
        server.addConnectionListener(event -> events.add(event.type()));
        client = new RemotingClient(RemotingClientConfig.builder().build());
        client.invokeSync(address(), echo("x"), TIMEOUT);
        assertThat(events.poll(5, TimeUnit.SECONDS)).isEqualTo(ConnectionEvent.Type.CONNECT);
        assertThat(events.poll(5, TimeUnit.SECONDS)).isEqualTo(ConnectionEvent.Type.IDLE);
        assertThat(events.poll(5, TimeUnit.SECONDS)).isEqualTo(ConnectionEvent.Type.CLOSE);
        await().atMost(TIMEOUT).until(() -> server.connectionCount() == 0);
        // the client reconnects on its next call
        assertThat(client.invokeSync(address(), echo("again"), TIMEOUT).code()).isZero();
    }

    @Test
    void shouldFailPendingCallsWhenTheConnectionClosesAsLostNotAsNeverSent() throws Exception {
        startServer(RemotingServerConfig.builder().build());
        BlockingQueue<RequestContext> held = holdPulls();
        client = new RemotingClient(RemotingClientConfig.builder().build());
        CompletableFuture<RemotingCommand> pull = client.invokeAsync(address(),
                RemotingCommand.request(RequestCode.PULL_MESSAGE).build(), Duration.ofSeconds(30));
        held.poll(5, TimeUnit.SECONDS).channel().close();
        // the server had the request: a caller must not take it for one that never left
        assertThatThrownBy(() -> pull.get(5, TimeUnit.SECONDS))
                .hasCauseInstanceOf(RemotingConnectionLostException.class)
                .cause().isNotInstanceOf(RemotingConnectException.class)
                .hasMessageContaining("closed before the response arrived");
    }

    @Test
    void shouldFailToConnectToANonListeningPort() {
        startServer(RemotingServerConfig.builder().build());
        int port = server.port();
        server.close();
        server = null;
        client = new RemotingClient(RemotingClientConfig.builder().build());
        assertThatThrownBy(() -> client.invokeSync("127.0.0.1:" + port, echo("x"), TIMEOUT))
                .isInstanceOf(RemotingConnectException.class);
    }

    @Test
    void shouldSendBinaryHeadersWhenConfigured() {
        startServer(RemotingServerConfig.builder().build());
        AtomicReference<SerializeType> seen = new AtomicReference<>();
        server.registerProcessor(RequestCode.HEART_BEAT, (ctx, request) -> {
            seen.set(request.serializeType());
            return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build();
        }, processorPool);
        client = new RemotingClient(RemotingClientConfig.builder().serializeType(SerializeType.ROCKETMQ).build());
        RemotingCommand response = client.invokeSync(address(), RemotingCommand.request(RequestCode.HEART_BEAT).build(),
                TIMEOUT);
        assertThat(seen.get()).isEqualTo(SerializeType.ROCKETMQ);
        assertThat(response.serializeType()).isEqualTo(SerializeType.ROCKETMQ);
    }

    @Test
    void shouldFinishRunningRequestsOnGracefulShutdown() throws Exception {
        startServer(RemotingServerConfig.builder().build());
        CountDownLatch started = new CountDownLatch(1);
        server.registerProcessor(RequestCode.PULL_MESSAGE, (ctx, request) -> {
            started.countDown();
            Thread.sleep(300); // the slow work a graceful shutdown must wait for
            return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).remark("done").build();
        }, processorPool);
        client = new RemotingClient(RemotingClientConfig.builder().build());
        CompletableFuture<RemotingCommand> pull = client.invokeAsync(address(),
                RemotingCommand.request(RequestCode.PULL_MESSAGE).build(), TIMEOUT);
        assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
        int port = server.port();
        server.close();
        server = null;
        assertThat(pull.get(5, TimeUnit.SECONDS).remark()).isEqualTo("done");
        try (RemotingClient other = new RemotingClient(RemotingClientConfig.builder().build())) {
            assertThatThrownBy(() -> other.invokeSync("127.0.0.1:" + port, echo("x"), TIMEOUT))
                    .isInstanceOf(RemotingConnectException.class);
        }
    }

    @Test
    void shouldRejectInvalidConfigNamingTheKey() {
        assertThatThrownBy(() -> RemotingServerConfig.builder().port(70000).build())
                .hasMessage("port = 70000: must be within 0..65535");
        assertThatThrownBy(() -> RemotingClientConfig.builder().asyncPermits(0).build())
                .hasMessage("asyncPermits = 0: must be positive");
    }

    @Test
    void shouldSendBodiesGivenAsBuffersWithoutChangingThem() {
        startServer(RemotingServerConfig.builder().build());
        java.nio.ByteBuffer mapped = java.nio.ByteBuffer.allocateDirect(64);
        for (int i = 0; i < 64; i++) {
            mapped.put((byte) i);
        }
        mapped.flip();
        java.nio.ByteBuffer first = mapped.slice(0, 10);
        java.nio.ByteBuffer second = mapped.slice(40, 24);
        server.registerProcessor(RequestCode.PULL_MESSAGE, (ctx, request) -> RemotingCommand.responseTo(request,
                ResponseCode.SUCCESS).bodyParts(List.of(first, second)).build(), processorPool);
        client = new RemotingClient(RemotingClientConfig.builder().build());
        for (int round = 0; round < 3; round++) { // the same buffers can be sent again: positions untouched
            RemotingCommand response = client.invokeSync(address(),
                    RemotingCommand.request(RequestCode.PULL_MESSAGE).build(), TIMEOUT);
            assertThat(response.bodyLength()).isEqualTo(34);
            assertThat(response.body()[0]).isEqualTo((byte) 0);
            assertThat(response.body()[9]).isEqualTo((byte) 9);
            assertThat(response.body()[10]).isEqualTo((byte) 40);
            assertThat(response.body()[33]).isEqualTo((byte) 63);
        }
        assertThat(first.remaining()).isEqualTo(10);
    }
}
