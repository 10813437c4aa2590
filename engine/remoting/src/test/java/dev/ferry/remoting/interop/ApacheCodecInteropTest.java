package dev.ferry.remoting.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.codec.CommandCodec;
import dev.ferry.remoting.protocol.HeaderCodec;
import dev.ferry.remoting.protocol.LanguageCode;
import dev.ferry.remoting.protocol.SerializeType;
import dev.ferry.remoting.protocol.header.PullMessageRequestHeader;
import dev.ferry.remoting.protocol.header.SendMessageRequestHeaderV2;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Apache's codec is the oracle: what one side encodes, the other decodes to the same command. */
class ApacheCodecInteropTest {
    private final CommandCodec codec = new CommandCodec();

    private static org.apache.rocketmq.remoting.protocol.SerializeType apacheType(SerializeType type) {
        return org.apache.rocketmq.remoting.protocol.SerializeType.valueOf(type.name());
    }

    private static org.apache.rocketmq.remoting.protocol.RemotingCommand apacheSend(Random random) {
        org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeaderV2 h =
                new org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeaderV2();
        h.setA("PG_" + random.nextInt(1000));
        h.setB("Topic\u00e9" + random.nextInt(100));
        h.setC("TBW102");
        h.setD(4);
        h.setE(random.nextInt(8));
        h.setF(random.nextInt(256));
        h.setG(random.nextLong());
        h.setH(random.nextInt());
        h.setI("UNIQ_KEY\u0001" + Long.toHexString(random.nextLong()) + "\u0002TAGS\u0001Tag\"" + random.nextInt(9)
                + "\u0002KEYS\u0001k1 k2\u0002");
        h.setJ(random.nextInt(16));
        h.setK(random.nextBoolean());
        h.setM(random.nextBoolean());
        h.setBrokerName("broker-" + random.nextInt(3));
        org.apache.rocketmq.remoting.protocol.RemotingCommand cmd =
                org.apache.rocketmq.remoting.protocol.RemotingCommand.createRequestCommand(310, h);
        cmd.setRemark(random.nextBoolean() ? null : "remark " + random.nextInt());
        byte[] body = new byte[random.nextInt(2048)];
        random.nextBytes(body);
        cmd.setBody(body.length == 0 ? null : body);
        return cmd;
    }

    @ParameterizedTest
    @EnumSource(SerializeType.class)
    void shouldDecodeWhatApacheEncodes(SerializeType type) {
        Random random = new Random(type.ordinal());
        for (int i = 0; i < 500; i++) {
            org.apache.rocketmq.remoting.protocol.RemotingCommand apache = apacheSend(random);
            apache.setSerializeTypeCurrentRPC(apacheType(type));
            if (i % 3 == 0) {
                apache.markOnewayRPC();
            }
            ByteBuffer encoded = apache.encode();
            apache.makeCustomHeaderToNet();
            RemotingCommand ferry = codec.decode(Unpooled.wrappedBuffer(encoded));

            assertThat(ferry.code()).isEqualTo(apache.getCode());
            assertThat(ferry.language().name()).isEqualTo(apache.getLanguage().name());
            assertThat(ferry.version()).isEqualTo(apache.getVersion());
            assertThat(ferry.opaque()).isEqualTo(apache.getOpaque());
            assertThat(ferry.flag()).isEqualTo(apache.getFlag());
            assertThat(ferry.remark()).isEqualTo(apache.getRemark());
            assertThat(ferry.extFields()).isEqualTo(apache.getExtFields());
            assertThat(ferry.body()).isEqualTo(apache.getBody() == null ? new byte[0] : apache.getBody());
            assertThat(ferry.serializeType()).isEqualTo(type);
            SendMessageRequestHeaderV2 typed = ferry.header(SendMessageRequestHeaderV2.class);
            assertThat(typed.bornTimestamp()).isEqualTo(Long.parseLong(apache.getExtFields().get("g")));
            assertThat(typed.properties()).isEqualTo(apache.getExtFields().get("i"));
        }
    }

    @ParameterizedTest
    @EnumSource(SerializeType.class)
    void shouldEncodeWhatApacheDecodes(SerializeType type) throws RemotingCommandException {
        Random random = new Random(100 + type.ordinal());
        for (int i = 0; i < 500; i++) {
            PullMessageRequestHeader header = new PullMessageRequestHeader("CG_" + random.nextInt(100),
                    "Topic_" + random.nextInt(100), random.nextInt(16), random.nextLong() & Long.MAX_VALUE, 32,
                    random.nextInt(32), random.nextLong() & Long.MAX_VALUE, 15000, random.nextBoolean() ? null
                    : "TagA || TagB", random.nextLong(), random.nextBoolean() ? "TAG" : null, null, "broker-a");
            byte[] body = new byte[random.nextInt(64)];
            random.nextBytes(body);
            RemotingCommand.Builder builder = RemotingCommand.request(11, header).opaque(random.nextInt())
                    .language(LanguageCode.values()[random.nextInt(LanguageCode.values().length)])
                    .body(body).serializeType(type).remark(i % 2 == 0 ? null : "r\u00e9" + i);
            if (i % 5 == 0) {
                builder.extField("unicode\u00fc", "v\u4e2d\u6587\n\t\u0001");
            }
            RemotingCommand ferry = builder.build();
            ByteBuf frame = Unpooled.buffer();
            codec.encode(ferry, frame);
            int length = frame.readInt();
            assertThat(length).isEqualTo(frame.readableBytes());
            org.apache.rocketmq.remoting.protocol.RemotingCommand apache =
                    org.apache.rocketmq.remoting.protocol.RemotingCommand.decode(frame);
            frame.release();

            assertThat(apache.getCode()).isEqualTo(ferry.code());
            assertThat(apache.getLanguage().name()).isEqualTo(ferry.language().name());
            assertThat(apache.getVersion()).isEqualTo(ferry.version());
            assertThat(apache.getOpaque()).isEqualTo(ferry.opaque());
            assertThat(apache.getFlag()).isEqualTo(ferry.flag());
            assertThat(apache.getRemark()).isEqualTo(ferry.remark());
            assertThat(apache.getExtFields()).isEqualTo(new HashMap<>(ferry.extFields()));
            assertThat(apache.getBody()).isEqualTo(body.length == 0 ? null : body);
            assertThat(apache.getSerializeTypeCurrentRPC().name()).isEqualTo(type.name());

            org.apache.rocketmq.remoting.protocol.header.PullMessageRequestHeader decoded = apache
                            .decodeCommandCustomHeader(
                                    org.apache.rocketmq.remoting.protocol.header.PullMessageRequestHeader.class);
            assertThat(decoded.getConsumerGroup()).isEqualTo(header.consumerGroup());
            assertThat(decoded.getQueueOffset()).isEqualTo(header.queueOffset());
            assertThat(decoded.getSubVersion()).isEqualTo(header.subVersion());
            assertThat(decoded.getSubscription()).isEqualTo(header.subscription());
            assertThat(decoded.getBrokerName()).isEqualTo(header.brokerName());
        }
    }

    @ParameterizedTest
    @EnumSource(SerializeType.class)
    void shouldAgreeWithApacheOnTypedResponseHeaders(SerializeType type) throws RemotingCommandException {
        org.apache.rocketmq.remoting.protocol.RemotingCommand apache = org.apache.rocketmq.remoting.protocol
                .RemotingCommand.createResponseCommand(
                        org.apache.rocketmq.remoting.protocol.header.SendMessageResponseHeader.class);
        org.apache.rocketmq.remoting.protocol.header.SendMessageResponseHeader h =
                (org.apache.rocketmq.remoting.protocol.header.SendMessageResponseHeader) apache.readCustomHeader();
        h.setMsgId("7F00000100002A9F0000000000000120");
        h.setQueueId(2);
        h.setQueueOffset(77L);
        h.setTransactionId("TX");
        apache.setCode(0);
        apache.setSerializeTypeCurrentRPC(apacheType(type));
        RemotingCommand ferry = codec.decode(Unpooled.wrappedBuffer(apache.encode()));
        var typed = ferry.header(dev.ferry.remoting.protocol.header.SendMessageResponseHeader.class);
        assertThat(typed.msgId()).isEqualTo("7F00000100002A9F0000000000000120");
        assertThat(typed.queueId()).isEqualTo(2);
        assertThat(typed.queueOffset()).isEqualTo(77L);
        assertThat(typed.transactionId()).isEqualTo("TX");
        assertThat(ferry.isResponse()).isTrue();
        Map<String, String> fields = new HashMap<>();
        HeaderCodec.of(dev.ferry.remoting.protocol.header.SendMessageResponseHeader.class).encode(typed, fields);
        assertThat(fields).containsEntry("msgId", "7F00000100002A9F0000000000000120");
        assertThat(new String(ferry.body(), StandardCharsets.UTF_8)).isEmpty();
    }
}
