package dev.ferry.samples.orders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OrderParserTest {

    @Test
    void shouldReadTheItemAndQuantityAndIgnoreOtherFields() throws InvalidOrderException {
        assertThat(OrderParser.parse(utf8("{\"item\":\"gâteau\",\"quantity\":2,\"note\":\"by noon\"}")))
                .isEqualTo(new Order("gâteau", 2));
    }

    @Test
    void shouldTakeOneWhenTheQuantityIsMissing() throws InvalidOrderException {
        assertThat(OrderParser.parse(utf8("{\"item\":\"pen\"}"))).isEqualTo(new Order("pen", 1));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "{\"item\":                         | the order is not valid JSON: it ends too early",
        "[1,2                               | the order is not valid JSON: it ends too early",
        "`   `                              | the order is not valid JSON: it ends too early",
        "not json                           | the order is not valid JSON (line 1, column 2)",
        "{\"item\" 1}                       | the order is not valid JSON (line 1, column 9)",
        "{\"item\":\"pen\"} ]               | the order is not valid JSON (line 1, column 16)",
        "{\"item\":\"pen\"}{\"item\":\"pen\"} | the order is not valid JSON (line 1, column 15)",
        "[\"pen\"]                          | the order must be a JSON object, not an array",
        "\"pen\"                            | the order must be a JSON object, not a string",
        "null                               | the order must be a JSON object, not null",
        "{}                                 | the order has no \"item\"",
        "{\"quantity\":2}                   | the order has no \"item\"",
        "{\"item\":\"  \"}                  | \"item\" must be a non-blank string",
        "{\"item\":7}                       | \"item\" must be a non-blank string",
        "{\"item\":\"pen\",\"quantity\":-1} | \"quantity\" must be a whole number from 1 to 1000000: -1",
        "{\"item\":\"pen\",\"quantity\":0}  | \"quantity\" must be a whole number from 1 to 1000000: 0",
        "{\"item\":\"pen\",\"quantity\":1.5}| \"quantity\" must be a whole number from 1 to 1000000: 1.5",
        "{\"item\":\"pen\",\"quantity\":\"2\"}| \"quantity\" must be a whole number from 1 to 1000000: \"2\"",
        "{\"item\":\"pen\",\"quantity\":1000001}| \"quantity\" must be a whole number from 1 to 1000000: 1000001",
    })
    void shouldRefuseABodyThatIsNotAnOrderInOneLine(String body, String why) {
        assertThatThrownBy(() -> OrderParser.parse(utf8(body))).isInstanceOf(InvalidOrderException.class)
                .hasMessage(why);
    }

    @Test
    void shouldRefuseAnEmptyBody() {
        assertThatThrownBy(() -> OrderParser.parse(new byte[0])).hasMessage("the order is empty");
    }

    @Test
    void shouldRefuseAnItemLongerThanTheTableHolds() {
        String item = "x".repeat(OrderParser.MAX_ITEM_LENGTH + 1);
        assertThatThrownBy(() -> OrderParser.parse(utf8("{\"item\":\"" + item + "\"}")))
                .hasMessage("\"item\" must be at most 200 characters");
    }

    @Test
    void shouldRefuseBytesThatAreNotUtf8() {
        byte[] latin1 = "{\"item\":\"gâteau\"}".getBytes(StandardCharsets.ISO_8859_1);
        assertThatThrownBy(() -> OrderParser.parse(latin1)).isInstanceOf(InvalidOrderException.class)
                .hasMessage("the order is not UTF-8 text");
    }

    @Test
    void shouldShortenAVeryLongQuantityInTheRefusal() {
        String digits = "9".repeat(100);
        assertThatThrownBy(() -> OrderParser.parse(utf8("{\"item\":\"pen\",\"quantity\":" + digits + "}")))
                .hasMessage("\"quantity\" must be a whole number from 1 to 1000000: " + "9".repeat(40) + "...");
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
