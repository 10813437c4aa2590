package dev.ferry.strategies.filter.tag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.spi.FilterExpressionException;
import dev.ferry.spi.FilterableMessage;
import dev.ferry.spi.MessageFilter;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TagFilterTest {

    private final TagFilterProvider tags = new TagFilterProvider();

    @Test
    void shouldTakeEveryMessageForStarOrEmpty() {
        for (String expression : new String[] {"*", ""}) {
            MessageFilter filter = tags.compile(expression);

            assertThat(filter.mayMatchTagsCode(0)).isTrue();
            assertThat(filter.matches(FilterableMessage.of(Map.of()))).isTrue();
        }
    }

    @Test
    void shouldTakeOnlyTheListedTags() {
        MessageFilter filter = tags.compile(" paid || shipped ||");

        assertThat(filter.matches(tagged("paid"))).isTrue();
        assertThat(filter.matches(tagged("shipped"))).isTrue();
        assertThat(filter.matches(tagged("cancelled"))).isFalse();
        assertThat(filter.matches(FilterableMessage.of(Map.of()))).isFalse();
    }

    @Test
    void shouldPreCheckTheTagsHashCodeAndLetTheExactCheckDropCollisions() {
        MessageFilter filter = tags.compile("Aa");
        // "Aa" and "BB" share a hash code: the consume queue cannot tell them apart.
        assertThat("BB".hashCode()).isEqualTo("Aa".hashCode());

        assertThat(filter.mayMatchTagsCode("Aa".hashCode())).isTrue();
        assertThat(filter.mayMatchTagsCode("BB".hashCode())).isTrue();
        assertThat(filter.mayMatchTagsCode("Ab".hashCode())).isFalse();
        assertThat(filter.mayMatchTagsCode(0)).isFalse();
        assertThat(filter.matches(tagged("BB"))).isFalse();
    }

    @Test
    void shouldRejectAnExpressionWithoutTags() {
        assertThatThrownBy(() -> tags.compile("||"))
                .isInstanceOf(FilterExpressionException.class)
                .hasMessage("Invalid TAG expression at position 0: no tag between the '||' separators in '||'");
    }

    private static FilterableMessage tagged(String tag) {
        return FilterableMessage.of(Map.of(FilterableMessage.TAGS, tag));
    }
}
