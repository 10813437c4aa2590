package dev.ferry.bench.remoting;

import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.codec.CommandCodec;
import dev.ferry.remoting.protocol.SerializeType;
import dev.ferry.remoting.protocol.header.SendMessageRequestHeaderV2;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
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
 * Header encode and decode of the same SEND_MESSAGE_V2 request, Ferry's codec beside Apache's
 * {@code RemotingCommand}. Both sides start from (encode) or end in (decode) a typed header, as
 * a producer and a broker do, and both write into / read from a pooled direct buffer as their
 * Netty encoders do.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class HeaderCodecBenchmark {

    @Param({"JSON", "ROCKETMQ"})
    public String serializeType;

    private static final String PROPERTIES = "UNIQ_KEY\u0001FD0000000000000000000000000000021E7030946E0994F126220001"
            + "\u0002WAIT\u0001true\u0002TAGS\u0001TagA\u0002KEYS\u0001KEY1 KEY2\u0002";
    private static final byte[] BODY = new byte[16];

    private final CommandCodec codec = new CommandCodec();
    private SerializeType type;
    private org.apache.rocketmq.remoting.protocol.SerializeType apacheType;
    private ByteBuf out;
    private ByteBuf ferryFrame;
    private ByteBuf apacheFrame;

    @Setup(Level.Trial)
    public void setUp() {
        type = SerializeType.valueOf(serializeType);
        apacheType = org.apache.rocketmq.remoting.protocol.SerializeType.valueOf(serializeType);
        out = PooledByteBufAllocator.DEFAULT.directBuffer(4096);
        ferryFrame = PooledByteBufAllocator.DEFAULT.directBuffer(4096);
        codec.encode(ferryCommand(), ferryFrame);
        ferryFrame.skipBytes(4);
        apacheFrame = PooledByteBufAllocator.DEFAULT.directBuffer(4096);
        apacheCommand().fastEncodeHeader(apacheFrame);
        apacheFrame.writeBytes(BODY);
        apacheFrame.skipBytes(4);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        out.release();
        ferryFrame.release();
        apacheFrame.release();
    }

    private RemotingCommand ferryCommand() {
        return RemotingCommand.request(310, new SendMessageRequestHeaderV2("PG_FLOWS", "TopicTest", "TBW102", 4, 1, 0,
                        1795990032424L, 0, PROPERTIES, 0, false, null, false, "broker-a"))
                .opaque(7).body(BODY).serializeType(type).build();
    }

    private org.apache.rocketmq.remoting.protocol.RemotingCommand apacheCommand() {
        org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeaderV2 h =
                new org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeaderV2();
        h.setA("PG_FLOWS");
        h.setB("TopicTest");
        h.setC("TBW102");
        h.setD(4);
        h.setE(1);
        h.setF(0);
        h.setG(1795990032424L);
        h.setH(0);
        h.setI(PROPERTIES);
        h.setJ(0);
        h.setK(false);
        h.setM(false);
        h.setBrokerName("broker-a");
        org.apache.rocketmq.remoting.protocol.RemotingCommand cmd =
                org.apache.rocketmq.remoting.protocol.RemotingCommand.createRequestCommand(310, h);
        cmd.setBody(BODY);
        cmd.setSerializeTypeCurrentRPC(apacheType);
        return cmd;
    }

    @Benchmark
    public int ferryEncode() {
        out.clear();
        codec.encode(ferryCommand(), out);
        return out.writerIndex();
    }

    @Benchmark
    public int apacheEncode() {
        out.clear();
        org.apache.rocketmq.remoting.protocol.RemotingCommand cmd = apacheCommand();
        cmd.fastEncodeHeader(out); // what Apache's NettyEncoder does, then it writes the body
        out.writeBytes(cmd.getBody());
        return out.writerIndex();
    }

    @Benchmark
    public SendMessageRequestHeaderV2 ferryDecode() {
        return codec.decodeFrame(ferryFrame.duplicate()).header(SendMessageRequestHeaderV2.class);
    }

    @Benchmark
    public Object apacheDecode() throws Exception {
        org.apache.rocketmq.remoting.protocol.RemotingCommand cmd =
                org.apache.rocketmq.remoting.protocol.RemotingCommand.decode(apacheFrame.duplicate());
        return cmd.decodeCommandCustomHeader(org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeaderV2.class);
    }
}
