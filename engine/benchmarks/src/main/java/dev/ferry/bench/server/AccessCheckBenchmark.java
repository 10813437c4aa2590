package dev.ferry.bench.server;

import dev.ferry.format.Clock;
import dev.ferry.remoting.Credentials;
import dev.ferry.remoting.RemoteChannel;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestSignature;
import dev.ferry.remoting.codec.CommandCodec;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.header.SendMessageRequestHeaderV2;
import dev.ferry.server.auth.AccessGuard;
import dev.ferry.server.auth.AclResource;
import dev.ferry.server.auth.Action;
import dev.ferry.server.auth.AuthMetadata;
import dev.ferry.server.auth.AuthUser;
import dev.ferry.server.auth.Decision;
import dev.ferry.server.auth.PolicyEntry;
import dev.ferry.server.auth.PolicyType;
import dev.ferry.server.auth.RequestResources;
import dev.ferry.server.auth.UserStatus;
import dev.ferry.server.auth.UserType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the broker's access check costs one send, apart from everything else a send costs: a SEND_MESSAGE_V2 of
 * {@code bodyBytes}, signed as Apache's {@code AclClientRPCHook} signs it and decoded from its frame as the broker
 * decodes it, checked by {@link AccessGuard} for a normal user whose policy allows the topic (the FeatureOverhead
 * harness's "acl" mode). {@code verify} is the signature alone, {@code check} the whole guard. Around them, what
 * signing adds elsewhere: {@code sign} (the client's signature), {@code encodeSigned} against {@code encodePlain}
 * (the client's frame), {@code decodeSigned} against {@code decodePlain} (the broker's decode before the check).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx512m"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class AccessCheckBenchmark {
    private static final String USER = "sender";
    private static final String PASSWORD = "sender-password";
    private static final String TOPIC = "BenchTopic";
    private static final String PROPERTIES = "UNIQ_KEY\u0001FD0000000000000000000000000000021E7030946E0994F126220001"
            + "\u0002WAIT\u0001true\u0002";

    @Param({"1024"})
    public int bodyBytes;

    private Path dir;
    private AccessGuard guard;
    private RemotingCommand request;
    private RemotingCommand unsigned;
    private RemotingCommand signed;
    private final Credentials credentials = new Credentials(USER, PASSWORD);
    private final CommandCodec codec = new CommandCodec();
    private final ByteBuf out = Unpooled.directBuffer(4096);
    private ByteBuf plainFrame;
    private ByteBuf signedFrame;
    private final RemoteChannel channel = new Peer(new InetSocketAddress("127.0.0.1", 40000));

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("access-check");
        AuthMetadata metadata = new AuthMetadata(dir);
        metadata.createUser(new AuthUser(USER, PASSWORD, UserType.NORMAL, UserStatus.ENABLE));
        metadata.putAcl(USER, Map.of(PolicyType.CUSTOM, List.of(new PolicyEntry(AclResource.parse("Topic:" + TOPIC),
                Set.of(Action.PUB), List.of(), Decision.ALLOW))));
        guard = new AccessGuard(metadata, new RequestResources(new BodyCodec(), "DefaultCluster"), true, true,
                Clock.system());
        unsigned = RemotingCommand.request(310, new SendMessageRequestHeaderV2("bench-producers",
                        TOPIC, "TBW102", 4, 1, 0, 1795990032424L, 0, PROPERTIES, 0, false, null, false, "broker-a"))
                .opaque(7).body(new byte[bodyBytes]).build();
        signed = RequestSignature.sign(unsigned, credentials);
        plainFrame = Unpooled.buffer();
        codec.encode(unsigned, plainFrame);
        signedFrame = Unpooled.buffer();
        codec.encode(signed, signedFrame);
        request = codec.decode(signedFrame.duplicate());
        RemotingCommand refusal = guard.check(channel, request);
        if (refusal != null) {
            throw new IllegalStateException("the benchmark's request is refused: " + refusal.remark());
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        SideBySide.deleteRecursively(dir);
    }

    @Benchmark
    public boolean verify() {
        return RequestSignature.verify(request, PASSWORD);
    }

    @Benchmark
    public RemotingCommand check() {
        return guard.check(channel, request);
    }

    /** The client's part: signing a request. */
    @Benchmark
    public RemotingCommand sign() {
        return RequestSignature.sign(unsigned, credentials);
    }

    /** The client's part: a signed request's frame, against {@link #encodePlain}. */
    @Benchmark
    public int encodeSigned() {
        out.clear();
        codec.encode(signed, out);
        return out.writerIndex();
    }

    @Benchmark
    public int encodePlain() {
        out.clear();
        codec.encode(unsigned, out);
        return out.writerIndex();
    }

    /** The broker's part before the check: decoding a signed request's frame, against {@link #decodePlain}. */
    @Benchmark
    public RemotingCommand decodeSigned() {
        return codec.decode(signedFrame.duplicate());
    }

    @Benchmark
    public RemotingCommand decodePlain() {
        return codec.decode(plainFrame.duplicate());
    }

    /** The connection a request came in on: only its address is read. */
    private record Peer(SocketAddress remoteAddress) implements RemoteChannel {
        @Override
        public String id() {
            return "bench";
        }

        @Override
        public boolean isActive() {
            return true;
        }

        @Override
        public CompletableFuture<RemotingCommand> invokeAsync(RemotingCommand request, Duration timeout) {
            throw new UnsupportedOperationException();
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
}
