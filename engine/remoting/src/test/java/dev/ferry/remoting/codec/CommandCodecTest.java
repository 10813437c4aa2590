package dev.ferry.remoting.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.remoting.CommandFormatException;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.LanguageCode;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.SerializeType;
import dev.ferry.remoting.protocol.header.SendMessageRequestHeaderV2;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

class CommandCodecTest {
    private final CommandCodec codec = new CommandCodec();

    static RemotingCommand sample(SerializeType type) {
        return RemotingCommand.request(RequestCode.SEND_MESSAGE_V2, new SendMessageRequestHeaderV2("PG", "TopicTest",
                        "TBW102", 4, 1, 0, 1795990032424L, 0,
                        "UNIQ_KEY\u0001ABC\u0002TAGS\u0001TagA\u0002k\u0001\"quoted\" \\ caf\u00e9 \uD83D\uDE00\u0002",
                        0, false, null, false, "broker-a"))
                .opaque(42).remark("r\u00e9mark \"with\" quotes").body("hello".getBytes(StandardCharsets.UTF_8))
                .serializeType(type).build();
    }

    private RemotingCommand roundTrip(RemotingCommand command) {
        ByteBuf buf = Unpooled.buffer();
        try {
            codec.encode(command, buf);
            return codec.decode(buf);
        } finally {
            buf.release();
        }
    }

    @ParameterizedTest
    @EnumSource(SerializeType.class)
    void shouldDecodeWhatItEncodes(SerializeType type) {
        RemotingCommand command = sample(type);
        RemotingCommand decoded = roundTrip(command);
        assertThat(decoded).isEqualTo(command);
        assertThat(decoded.serializeType()).isEqualTo(type);
        assertThat(decoded.header(SendMessageRequestHeaderV2.class)).isEqualTo(command.header(SendMessageRequestHeaderV2.class));
    }

    @ParameterizedTest
    @EnumSource(SerializeType.class)
    void shouldKeepResponseAndOnewayFlags(SerializeType type) {
        RemotingCommand request = RemotingCommand.request(RequestCode.HEART_BEAT).oneway(true).serializeType(type).build();
        RemotingCommand response = RemotingCommand.responseTo(request, 17).remark("No topic route info").build();
        assertThat(roundTrip(request).isOneway()).isTrue();
        assertThat(roundTrip(response).isResponse()).isTrue();
        assertThat(roundTrip(response).code()).isEqualTo(17);
    }

    @Test
    void shouldDecodeTheRouteRequestApacheSends() {
        String json = "{\"code\":105,\"extFields\":{\"topic\":\"TopicTest\"},\"flag\":0,\"language\":\"JAVA\","
                + "\"opaque\":0,\"serializeTypeCurrentRPC\":\"JSON\",\"version\":479}";
        byte[] header = json.getBytes(StandardCharsets.US_ASCII);
        ByteBuf buf = Unpooled.buffer().writeInt(4 + header.length).writeInt(header.length).writeBytes(header);
        assertThat(buf.readableBytes()).isEqualTo(139);
        RemotingCommand command = codec.decode(buf);
        assertThat(command.code()).isEqualTo(RequestCode.GET_ROUTEINFO_BY_TOPIC);
        assertThat(command.version()).isEqualTo(479);
        assertThat(command.language()).isEqualTo(LanguageCode.JAVA);
        assertThat(command.extFields()).isEqualTo(Map.of("topic", "TopicTest"));
        assertThat(command.body()).isEmpty();
    }

    @Test
    void shouldWriteTheRouteRequestAsApacheDoes() {
        RemotingCommand command = RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC)
                .extField("topic", "TopicTest").build();
        ByteBuf buf = Unpooled.buffer();
        codec.encode(command, buf);
        assertThat(buf.readInt()).isEqualTo(135);
        assertThat(buf.readInt()).isEqualTo(131);
        assertThat(buf.toString(StandardCharsets.UTF_8)).isEqualTo("{\"code\":105,\"extFields\":{\"topic\":\"TopicTest\"},"
                + "\"flag\":0,\"language\":\"JAVA\",\"opaque\":0,\"serializeTypeCurrentRPC\":\"JSON\",\"version\":479}");
        buf.release();
    }

    @Test
    void shouldAcceptLenientJsonFromOtherClients() {
        String json = "{code:'34', extFields:{n:1, b:true, x:null}, language:\"GO\", opaque:7, flag:0, unknown:[1,{}]}";
        RemotingCommand command = decodeJson(json);
        assertThat(command.code()).isEqualTo(34);
        assertThat(command.language()).isEqualTo(LanguageCode.GO);
        assertThat(command.extFields()).isEqualTo(Map.of("n", "1", "b", "true"));
    }

    @Test
    void shouldMapUnknownLanguageToOther() {
        assertThat(decodeJson("{\"code\":1,\"language\":\"COBOL\"}").language()).isEqualTo(LanguageCode.OTHER);
    }

    private RemotingCommand decodeJson(String json) {
        byte[] header = json.getBytes(StandardCharsets.UTF_8);
        ByteBuf buf = Unpooled.buffer().writeInt(header.length).writeBytes(header);
        try {
            return codec.decodeFrame(buf);
        } finally {
            buf.release();
        }
    }

    @Test
    void shouldRejectUnknownSerializationType() {
        ByteBuf buf = Unpooled.buffer().writeInt((7 << 24) | 2).writeBytes(new byte[] {'{', '}'});
        assertThatThrownBy(() -> codec.decodeFrame(buf)).isInstanceOf(CommandFormatException.class)
                .hasMessageContaining("unknown header serialization type 7");
        buf.release();
    }

    @Test
    void shouldRejectHeaderLongerThanFrame() {
        ByteBuf buf = Unpooled.buffer().writeInt(100).writeBytes(new byte[] {'{', '}'});
        assertThatThrownBy(() -> codec.decodeFrame(buf)).isInstanceOf(CommandFormatException.class)
                .hasMessageContaining("header length 100 exceeds");
        buf.release();
    }

    @Test
    void shouldRejectFrameShorterThanHeaderWord() {
        ByteBuf buf = Unpooled.buffer().writeShort(1);
        assertThatThrownBy(() -> codec.decodeFrame(buf)).isInstanceOf(CommandFormatException.class)
                .hasMessageContaining("shorter than its 4-byte header word");
        buf.release();
    }

    @Test
    void shouldRejectMalformedJson() {
        assertThatThrownBy(() -> decodeJson("{\"code\":1,")).isInstanceOf(CommandFormatException.class)
                .hasMessageContaining("malformed JSON header");
        assertThatThrownBy(() -> decodeJson("[1,2]")).isInstanceOf(CommandFormatException.class)
                .hasMessageContaining("not an object");
        assertThatThrownBy(() -> decodeJson("{\"code\":\"x\"}")).isInstanceOf(CommandFormatException.class)
                .hasMessageContaining("'code' is not an int");
        assertThatThrownBy(() -> decodeJson("{\"extFields\":{\"a\":{}}}")).isInstanceOf(CommandFormatException.class)
                .hasMessageContaining("not a scalar");
    }

    @Test
    void shouldRejectBinaryHeaderWhoseLengthsOverrunIt() {
        ByteBuf header = Unpooled.buffer();
        header.writeShort(10).writeByte(0).writeShort(479).writeInt(1).writeInt(0);
        header.writeInt(1000); // remark length beyond the header
        ByteBuf frame = Unpooled.buffer().writeInt((1 << 24) | header.readableBytes()).writeBytes(header);
        assertThatThrownBy(() -> codec.decodeFrame(frame)).isInstanceOf(CommandFormatException.class)
                .hasMessageContaining("more were expected");
        header.release();
        frame.release();
    }
}
