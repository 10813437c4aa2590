package dev.ferry.strategies.filter.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.spi.FilterExpressionException;
import dev.ferry.spi.FilterableMessage;
import dev.ferry.spi.MessageFilter;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * The SQL92 filter, as the broker runs it on what any client sends: whatever the text (grammar-shaped, broken,
 * random, deeply nested, as long as the broker lets in), compiling it either yields a filter or throws
 * {@link FilterExpressionException}, and a compiled filter answers true or false for any properties: nothing else
 * escapes, so no subscription can take a broker thread down.
 */
class Sql92FuzzTest {
    private static final int LONGEST = 16 * 1024; // the broker's default maxExpressionLength
    private final Sql92FilterProvider provider = new Sql92FilterProvider();

    @Provide
    Arbitrary<String> expressions() {
        Arbitrary<Long> seeds = Arbitraries.longs();
        Arbitrary<String> grammar = seeds.map(seed -> new SqlCorpus(seed).condition(4));
        Arbitrary<String> broken = seeds.map(seed -> {
            SqlCorpus corpus = new SqlCorpus(seed);
            return corpus.malformed(corpus.condition(3));
        });
        Arbitrary<String> random = Arbitraries.strings().ofMaxLength(200);
        Arbitrary<String> sqlish = Arbitraries.strings().withChars("abc()'=<>!-+.,0123456789 ANDORNOTISLBEWC\n/*")
                .ofMaxLength(300);
        Arbitrary<String> deep = Arbitraries.integers().between(1, LONGEST / 8).flatMap(depth -> Arbitraries.of(
                "(".repeat(depth) + "a = 1" + ")".repeat(depth),
                "NOT ".repeat(depth) + "a = 1",
                "a = 1" + " AND a = 1".repeat(depth),
                "a = 1" + " OR b <> 2".repeat(depth),
                "a IN (" + "'x',".repeat(depth) + "'y')",
                "-".repeat(depth) + "1 = a",
                "(".repeat(depth)));
        return Arbitraries.frequencyOf(Tuple.of(4, grammar), Tuple.of(3, broken), Tuple.of(2, random),
                Tuple.of(2, sqlish), Tuple.of(1, deep)).filter(text -> text.length() <= LONGEST);
    }

    @Provide
    Arbitrary<Map<String, String>> properties() {
        Arbitrary<String> keys = Arbitraries.of("a", "b", "c", "TAGS", "price", "x");
        Arbitrary<String> values = Arbitraries.oneOf(Arbitraries.of("1", "0", "-5", "2.5", "1e3", "abc", "", "true",
                "NaN", "9223372036854775808", "x'y"), Arbitraries.strings().ofMaxLength(12));
        return Arbitraries.maps(keys, values).ofMaxSize(6);
    }

    @Property(seed = "20261201") // tries: the budget's (jqwik.tries.default, docs/testing.md)
    void shouldCompileOrRefuseAndThenAlwaysAnswer(@ForAll("expressions") String expression,
                                                  @ForAll("properties") Map<String, String> properties) {
        MessageFilter filter;
        try {
            filter = provider.compile(expression);
        } catch (FilterExpressionException refused) {
            assertThat(refused.getMessage()).isNotBlank();
            return;
        }
        boolean first = filter.matches(FilterableMessage.of(properties));
        assertThat(filter.matches(FilterableMessage.of(properties))).as("the same answer twice").isEqualTo(first);
    }
}
