package dev.ferry.bench.remoting;

import dev.ferry.remoting.RemotingClientConfig;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RemotingServerConfig;
import dev.ferry.remoting.endpoint.RemotingClient;
import dev.ferry.remoting.endpoint.RemotingServer;
import io.netty.channel.ChannelHandlerContext;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.rocketmq.remoting.InvokeCallback;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.netty.NettyRemotingServer;
import org.apache.rocketmq.remoting.netty.NettyRequestProcessor;
import org.apache.rocketmq.remoting.netty.NettyServerConfig;
import org.apache.rocketmq.remoting.netty.ResponseFuture;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Request/response round trips over loopback with a 1 KiB body echoed back, for Ferry's client
 * and server beside Apache's, each with its default configuration and the same processor
 * executor (4 threads). {@code oneInFlight}: one synchronous call at a time;
 * {@code sixtyFourInFlight}: 64 asynchronous calls sent, then all awaited.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 3, time = 4)
public class RoundTripBenchmark {
    private static final int ECHO = 9001;
    private static final int IN_FLIGHT = 64;
    private static final byte[] BODY = new byte[1024];
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Param({"ferry", "apache"})
    public String implementation;

    private ExecutorService processors;
    private Peer peer;

    /** One side of the comparison: a server and a client talking over loopback. */
    interface Peer extends AutoCloseable {
        void call() throws Exception;

        void callMany(int n) throws Exception;

        @Override
        void close();
    }

    @Setup(Level.Trial)
    public void setUp() {
        processors = Executors.newFixedThreadPool(4);
        peer = "ferry".equals(implementation) ? new FerryPeer(processors) : new ApachePeer(processors);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        peer.close();
        processors.shutdownNow();
    }

    @Benchmark
    public void oneInFlight() throws Exception {
        peer.call();
    }

    @Benchmark
    @OperationsPerInvocation(IN_FLIGHT)
    public void sixtyFourInFlight() throws Exception {
        peer.callMany(IN_FLIGHT);
    }

    static final class FerryPeer implements Peer {
        private final RemotingServer server;
        private final RemotingClient client;
        private final String address;

        FerryPeer(ExecutorService processors) {
            server = new RemotingServer(RemotingServerConfig.builder().build());
            server.registerProcessor(ECHO, (ctx, request) -> RemotingCommand.responseTo(request, 0)
                    .body(request.body()).build(), processors);
            server.start();
            client = new RemotingClient(RemotingClientConfig.builder().build());
            address = "127.0.0.1:" + server.port();
        }

        @Override
        public void call() {
            RemotingCommand response = client.invokeSync(address, RemotingCommand.request(ECHO).body(BODY).build(),
                    TIMEOUT);
            if (response.body().length != BODY.length) {
                throw new IllegalStateException("bad echo");
            }
        }

        @Override
        public void callMany(int n) throws Exception {
            CompletableFuture<?>[] futures = new CompletableFuture<?>[n];
            for (int i = 0; i < n; i++) {
                futures[i] = client.invokeAsync(address, RemotingCommand.request(ECHO).body(BODY).build(), TIMEOUT);
            }
            CompletableFuture.allOf(futures).get(10, TimeUnit.SECONDS);
        }

        @Override
        public void close() {
            client.close();
            server.close();
        }
    }

    static final class ApachePeer implements Peer {
        private final NettyRemotingServer server;
        private final NettyRemotingClient client;
        private final String address;

        ApachePeer(ExecutorService processors) {
            NettyServerConfig config = new NettyServerConfig();
            config.setBindAddress("127.0.0.1");
            config.setListenPort(0);
            server = new NettyRemotingServer(config);
            server.registerProcessor(ECHO, new NettyRequestProcessor() {
                @Override
                public org.apache.rocketmq.remoting.protocol.RemotingCommand processRequest(ChannelHandlerContext ctx,
                        org.apache.rocketmq.remoting.protocol.RemotingCommand request) {
                    org.apache.rocketmq.remoting.protocol.RemotingCommand response =
                            org.apache.rocketmq.remoting.protocol.RemotingCommand.createResponseCommand(0, null);
                    response.setBody(request.getBody());
                    return response;
                }

                @Override
                public boolean rejectRequest() {
                    return false;
                }
            }, processors);
            server.start();
            client = new NettyRemotingClient(new NettyClientConfig());
            client.start();
            address = "127.0.0.1:" + server.localListenPort();
        }

        private static org.apache.rocketmq.remoting.protocol.RemotingCommand request() {
            org.apache.rocketmq.remoting.protocol.RemotingCommand cmd =
                    org.apache.rocketmq.remoting.protocol.RemotingCommand.createRequestCommand(ECHO, null);
            cmd.setBody(BODY);
            return cmd;
        }

        @Override
        public void call() throws Exception {
            org.apache.rocketmq.remoting.protocol.RemotingCommand response = client.invokeSync(address, request(),
                    TIMEOUT.toMillis());
            if (response.getBody().length != BODY.length) {
                throw new IllegalStateException("bad echo");
            }
        }

        @Override
        public void callMany(int n) throws Exception {
            CountDownLatch done = new CountDownLatch(n);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            for (int i = 0; i < n; i++) {
                client.invokeAsync(address, request(), TIMEOUT.toMillis(), new InvokeCallback() {
                    @Override
                    public void operationComplete(ResponseFuture responseFuture) {
                    }

                    @Override
                    public void operationSucceed(org.apache.rocketmq.remoting.protocol.RemotingCommand response) {
                        done.countDown();
                    }

                    @Override
                    public void operationFail(Throwable throwable) {
                        failure.set(throwable);
                        done.countDown();
                    }
                });
            }
            if (!done.await(10, TimeUnit.SECONDS) || failure.get() != null) {
                throw new IllegalStateException("async calls failed", failure.get());
            }
        }

        @Override
        public void close() {
            client.shutdown();
            server.shutdown();
        }
    }
}
