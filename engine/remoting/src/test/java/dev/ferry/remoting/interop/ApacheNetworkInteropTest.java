package dev.ferry.remoting.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.remoting.RemotingClientConfig;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RemotingServerConfig;
import dev.ferry.remoting.endpoint.RemotingClient;
import dev.ferry.remoting.endpoint.RemotingServer;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.SerializeType;
import io.netty.channel.ChannelHandlerContext;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.remoting.InvokeCallback;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.netty.NettyRemotingServer;
import org.apache.rocketmq.remoting.netty.NettyRequestProcessor;
import org.apache.rocketmq.remoting.netty.NettyServerConfig;
import org.apache.rocketmq.remoting.netty.ResponseFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Apache's remoting client calls a Ferry server, and Ferry's client calls Apache's server. */
@Tag("integration")
class ApacheNetworkInteropTest {
    private static final int ECHO = 9001;
    private static final int NOTE = 9002;
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final ExecutorService pool = Executors.newFixedThreadPool(2);
    private final BlockingQueue<String> onewayNotes = new LinkedBlockingQueue<>();

    @AfterEach
    void stopPool() {
        pool.shutdownNow();
    }

    private static org.apache.rocketmq.remoting.protocol.RemotingCommand apacheRequest(int code, String text) {
        org.apache.rocketmq.remoting.protocol.RemotingCommand cmd =
                org.apache.rocketmq.remoting.protocol.RemotingCommand.createRequestCommand(code, null);
        cmd.addExtField("text", text);
        cmd.setBody(text.getBytes(StandardCharsets.UTF_8));
        return cmd;
    }

    @Test
    void shouldServeApacheClientSyncAsyncAndOnewayCalls() throws Exception {
        try (RemotingServer server = new RemotingServer(RemotingServerConfig.builder().build())) {
            server.registerProcessor(ECHO, (ctx, request) -> RemotingCommand.responseTo(request, ResponseCode.SUCCESS)
                    .extField("echo", request.extField("text")).body(request.body()).build(), pool);
            server.registerProcessor(NOTE, (ctx, request) -> {
                onewayNotes.add(request.extField("text"));
                return null;
            }, pool);
            server.start();
            String address = "127.0.0.1:" + server.port();
            NettyRemotingClient client = new NettyRemotingClient(new NettyClientConfig());
            client.start();
            try {
                org.apache.rocketmq.remoting.protocol.RemotingCommand sync =
                        client.invokeSync(address, apacheRequest(ECHO, "sync"), 5000);
                assertThat(sync.getCode()).isEqualTo(ResponseCode.SUCCESS);
                assertThat(sync.getExtFields()).containsEntry("echo", "sync");
                assertThat(new String(sync.getBody(), StandardCharsets.UTF_8)).isEqualTo("sync");

                CompletableFuture<org.apache.rocketmq.remoting.protocol.RemotingCommand> async = new CompletableFuture<>();
                client.invokeAsync(address, apacheRequest(ECHO, "async"), 5000, new InvokeCallback() {
                    @Override
                    public void operationComplete(ResponseFuture responseFuture) {
                    }

                    @Override
                    public void operationSucceed(org.apache.rocketmq.remoting.protocol.RemotingCommand response) {
                        async.complete(response);
                    }

                    @Override
                    public void operationFail(Throwable throwable) {
                        async.completeExceptionally(throwable);
                    }
                });
                assertThat(async.get(5, TimeUnit.SECONDS).getExtFields()).containsEntry("echo", "async");

                client.invokeOneway(address, apacheRequest(NOTE, "oneway"), 5000);
                assertThat(onewayNotes.poll(5, TimeUnit.SECONDS)).isEqualTo("oneway");

                org.apache.rocketmq.remoting.protocol.RemotingCommand unknown =
                        client.invokeSync(address, apacheRequest(4242, "?"), 5000);
                assertThat(unknown.getCode()).isEqualTo(ResponseCode.REQUEST_CODE_NOT_SUPPORTED);
            } finally {
                client.shutdown();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(SerializeType.class)
    void shouldCallApacheServerSyncAsyncAndOneway(SerializeType type) throws Exception {
        NettyServerConfig config = new NettyServerConfig();
        config.setBindAddress("127.0.0.1");
        config.setListenPort(0);
        NettyRemotingServer server = new NettyRemotingServer(config);
        server.registerProcessor(ECHO, new NettyRequestProcessor() {
            @Override
            public org.apache.rocketmq.remoting.protocol.RemotingCommand processRequest(ChannelHandlerContext ctx,
                    org.apache.rocketmq.remoting.protocol.RemotingCommand request) {
                org.apache.rocketmq.remoting.protocol.RemotingCommand response =
                        org.apache.rocketmq.remoting.protocol.RemotingCommand.createResponseCommand(0, "ok");
                response.addExtField("echo", request.getExtFields().get("text"));
                response.addExtField("type", request.getSerializeTypeCurrentRPC().name());
                response.setBody(request.getBody());
                return response;
            }

            @Override
            public boolean rejectRequest() {
                return false;
            }
        }, pool);
        server.registerProcessor(NOTE, new NettyRequestProcessor() {
            @Override
            public org.apache.rocketmq.remoting.protocol.RemotingCommand processRequest(ChannelHandlerContext ctx,
                    org.apache.rocketmq.remoting.protocol.RemotingCommand request) {
                onewayNotes.add(request.getExtFields().get("text"));
                return null;
            }

            @Override
            public boolean rejectRequest() {
                return false;
            }
        }, pool);
        server.start();
        String address = "127.0.0.1:" + server.localListenPort();
        try (RemotingClient client = new RemotingClient(RemotingClientConfig.builder().serializeType(type).build())) {
            RemotingCommand sync = client.invokeSync(address, RemotingCommand.request(ECHO).extField("text", "sync")
                    .body("body".getBytes(StandardCharsets.UTF_8)).build(), TIMEOUT);
            assertThat(sync.isResponse()).isTrue();
            assertThat(sync.code()).isEqualTo(ResponseCode.SUCCESS);
            assertThat(sync.remark()).isEqualTo("ok");
            assertThat(sync.extFields()).containsEntry("echo", "sync").containsEntry("type", type.name());
            assertThat(new String(sync.body(), StandardCharsets.UTF_8)).isEqualTo("body");

            RemotingCommand async = client.invokeAsync(address, RemotingCommand.request(ECHO)
                    .extField("text", "async").build(), TIMEOUT).get(5, TimeUnit.SECONDS);
            assertThat(async.extFields()).containsEntry("echo", "async");

            client.invokeOneway(address, RemotingCommand.request(NOTE).extField("text", "oneway").build(), TIMEOUT);
            assertThat(onewayNotes.poll(5, TimeUnit.SECONDS)).isEqualTo("oneway");
        } finally {
            server.shutdown();
        }
    }
}
