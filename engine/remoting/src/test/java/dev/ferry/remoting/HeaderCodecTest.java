package dev.ferry.remoting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.remoting.protocol.HeaderCodec;
import dev.ferry.remoting.protocol.HeaderFormatException;
import dev.ferry.remoting.protocol.header.PullMessageRequestHeader;
import dev.ferry.remoting.protocol.header.PullMessageResponseHeader;
import dev.ferry.remoting.protocol.header.SendMessageRequestHeader;
import dev.ferry.remoting.protocol.header.SendMessageRequestHeaderV2;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class HeaderCodecTest {

    private static final SendMessageRequestHeader FULL = new SendMessageRequestHeader("PG", "T", "TBW102", 4, 2, 0,
            1795990032424L, 0, "TAGS\u0001a\u0002", 0, false, true, 16, "broker-a");

    @Test
    void shouldUseOneLetterNamesForSendMessageV2() {
        Map<String, String> fields = new HashMap<>();
        HeaderCodec.of(SendMessageRequestHeaderV2.class).encode(SendMessageRequestHeaderV2.of(FULL), fields);
        assertThat(fields).containsOnlyKeys("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n");
        assertThat(fields).containsEntry("a", "PG").containsEntry("e", "2").containsEntry("g", "1795990032424")
                .containsEntry("m", "true").containsEntry("n", "broker-a");
    }

    @Test
    void shouldConvertBetweenShortAndFullNames() {
        assertThat(SendMessageRequestHeaderV2.of(FULL).toFullNames()).isEqualTo(FULL);
        Map<String, String> fields = new HashMap<>();
        HeaderCodec.of(SendMessageRequestHeader.class).encode(FULL, fields);
        assertThat(fields).containsEntry("producerGroup", "PG").containsEntry("bname", "broker-a");
        assertThat(HeaderCodec.of(SendMessageRequestHeader.class).decode(fields)).isEqualTo(FULL);
    }

    @Test
    void shouldLeaveAbsentOptionalFieldsNullAndIgnoreUnknownOnes() {
        Map<String, String> fields = Map.of("suggestWhichBrokerId", "0", "nextBeginOffset", "5", "minOffset", "0",
                "maxOffset", "9", "somethingNew", "x");
        PullMessageResponseHeader header = HeaderCodec.of(PullMessageResponseHeader.class).decode(fields);
        assertThat(header.nextBeginOffset()).isEqualTo(5);
        assertThat(header.topicSysFlag()).isNull();
    }

    @Test
    void shouldNameTheMissingRequiredField() {
        Map<String, String> fields = Map.of("suggestWhichBrokerId", "0", "minOffset", "0", "maxOffset", "9");
        assertThatThrownBy(() -> HeaderCodec.of(PullMessageResponseHeader.class).decode(fields))
                .isInstanceOf(HeaderFormatException.class)
                .hasMessageContaining("PullMessageResponseHeader header lacks the required field 'nextBeginOffset'");
    }

    @Test
    void shouldNameTheFieldWhoseValueDoesNotParse() {
        Map<String, String> fields = Map.of("suggestWhichBrokerId", "0", "nextBeginOffset", "five", "minOffset", "0",
                "maxOffset", "9");
        assertThatThrownBy(() -> HeaderCodec.of(PullMessageResponseHeader.class).decode(fields))
                .isInstanceOf(HeaderFormatException.class)
                .hasMessageContaining("'nextBeginOffset' has the value 'five', which is not a long");
    }

    @Test
    void listsItsComponentsInTheOrderOfTheirWireNames() {
        // declared consumerGroup, topic, queueId, ...; a signature covers them sorted by name, brokerName as "bname"
        HeaderCodec<PullMessageRequestHeader> codec = HeaderCodec.of(PullMessageRequestHeader.class);
        List<String> inNameOrder = IntStream.range(0, codec.size())
                .mapToObj(rank -> codec.wireName(codec.indexInNameOrder(rank))).toList();

        assertThat(inNameOrder).containsExactly("bname", "commitOffset", "consumerGroup", "expressionType",
                "maxMsgBytes", "maxMsgNums", "queueId", "queueOffset", "subVersion", "subscription",
                "suspendTimeoutMillis", "sysFlag", "topic");
    }

    @Test
    void shouldCarryTypedHeadersOnCommands() {
        RemotingCommand command = RemotingCommand.request(310, SendMessageRequestHeaderV2.of(FULL)).build();
        assertThat(command.extField("b")).isEqualTo("T");
        assertThat(command.header(SendMessageRequestHeaderV2.class).toFullNames()).isEqualTo(FULL);
    }

    @Test
    void shouldLetLaterFieldsWinOverTypedHeaderFields() {
        RemotingCommand command = RemotingCommand.request(310, SendMessageRequestHeaderV2.of(FULL))
                .extField("b", "Other").extField("extra", "1").build();
        assertThat(command.extFields()).containsEntry("b", "Other").containsEntry("extra", "1").containsEntry("a", "PG");
        assertThat(command.header(SendMessageRequestHeaderV2.class).topic()).isEqualTo("Other");

        RemotingCommand headerLast = RemotingCommand.request(310).extField("b", "Old").extField("extra", "1")
                .header(SendMessageRequestHeaderV2.of(FULL)).build();
        assertThat(headerLast.extFields()).containsEntry("b", "T").containsEntry("extra", "1");
        assertThat(headerLast.explicitExtFields()).containsOnlyKeys("extra");
    }
}
