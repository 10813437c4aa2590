package dev.ferry.format;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** One reading rule for encoded properties: the map, the lookup of one name and the presence test agree. */
class MessagePropertiesTest {
    @Provide
    Arbitrary<String> encoded() {
        return Arbitraries.strings().withChars('a', 'b', MessageProperties.NAME_VALUE_SEPARATOR,
                MessageProperties.PROPERTY_SEPARATOR).ofMaxLength(40);
    }

    @Provide
    Arbitrary<String> names() {
        return Arbitraries.strings().withChars('a', 'b').ofMinLength(1).ofMaxLength(3);
    }

    @Property(tries = 2000)
    void shouldFindAndTellPresenceExactlyAsTheParsedMapDoes(@ForAll("encoded") String properties,
                                                            @ForAll("names") String name) {
        assertThat(MessageProperties.find(properties, name)).isEqualTo(MessageProperties.parse(properties).get(name));
        assertThat(MessageProperties.has(properties, name))
                .isEqualTo(MessageProperties.parse(properties).containsKey(name));
    }

    @Test
    void shouldNotTakeANameInsideAnotherNameOrAValueForAPresentProperty() {
        String properties = MessageProperties.format(java.util.Map.of("XDELAY", "3", "TAGS", "DELAY"));

        assertThat(MessageProperties.has(properties, MessageProperties.DELAY)).isFalse();
        assertThat(MessageProperties.has(properties + "DELAY\u0001\u0002", MessageProperties.DELAY))
                .as("an empty value is no value").isFalse();
        assertThat(MessageProperties.has(properties + "DELAY\u00012\u0002", MessageProperties.DELAY)).isTrue();
        assertThat(MessageProperties.has(null, MessageProperties.DELAY)).isFalse();
    }
}
