package dev.ferry.remoting.codec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.remoting.RemotingCommand;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The fast reader takes the common shape itself and gives up, for the general parser, on anything else. */
class JsonHeaderReaderTest {
    private final FieldNames names = new FieldNames();

    private RemotingCommand.Builder read(String json) {
        return new JsonHeaderReader(json.getBytes(StandardCharsets.UTF_8), names).read();
    }

    @Test
    void shouldReadTheShapeApacheWritesIncludingEscapes() {
        String json = "{\"code\":310,\"extFields\":{\"a\":\"PG\",\"i\":\"UNIQ_KEY\\u0001AB\\u0002TAGS\\u0001T\\\"q\\\\\\u0002\","
                + "\"u\":\"caf\u00e9 \\uD83D\\uDE00\"},\"flag\":2,\"language\":\"JAVA\",\"opaque\":-7,"
                + "\"remark\":\"r\",\"serializeTypeCurrentRPC\":\"JSON\",\"version\":479}";
        RemotingCommand command = read(json).build();
        assertThat(command.code()).isEqualTo(310);
        assertThat(command.opaque()).isEqualTo(-7);
        assertThat(command.flag()).isEqualTo(2);
        assertThat(command.remark()).isEqualTo("r");
        assertThat(command.extField("i")).isEqualTo("UNIQ_KEY\u0001AB\u0002TAGS\u0001T\"q\\\u0002");
        assertThat(command.extField("u")).isEqualTo("caf\u00e9 \uD83D\uDE00");
    }

    @Test
    void shouldLeaveEverythingUnusualToTheGeneralParser() {
        assertThat(read("{code:1}")).isNull();
        assertThat(read("{\"code\":\"1\"}")).isNull();
        assertThat(read("{\"extFields\":{\"n\":1}}")).isNull();
        assertThat(read("{\"unknown\":[1]}")).isNull();
        assertThat(read("{\"code\":1,")).isNull();
        assertThat(read("{\"code\":1} trailing")).isNull();
        assertThat(read("{\"code\":99999999999}")).isNull();
    }
}
