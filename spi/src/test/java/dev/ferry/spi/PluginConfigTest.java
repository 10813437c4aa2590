package dev.ferry.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PluginConfigTest {

    @Test
    void shouldReadTypedValuesAndDefaults() {
        PluginConfig config = PluginConfig.of("virtual-nodes", " 20 ", "idcs", "hz, sh,,", "blank", " ");

        assertThat(config.positiveInt("virtual-nodes", 10)).isEqualTo(20);
        assertThat(config.positiveInt("absent", 10)).isEqualTo(10);
        assertThat(config.list("idcs")).containsExactly("hz", "sh");
        assertThat(config.string("blank")).isEmpty();
        assertThat(config.string("absent", "d")).isEqualTo("d");
    }

    @Test
    void shouldNameTheKeyAndTheBadValue() {
        PluginConfig config = PluginConfig.of("virtual-nodes", "ten");

        assertThatThrownBy(() -> config.positiveInt("virtual-nodes", 10))
                .isInstanceOf(PluginConfigException.class)
                .hasMessage("Invalid plugin config 'virtual-nodes' = 'ten': expected a positive integer");
        assertThatThrownBy(() -> config.requiredString("idcs"))
                .isInstanceOf(PluginConfigException.class)
                .hasMessage("Missing plugin config 'idcs'");
    }

    @Test
    void shouldGiveAWrappedPluginItsSection() {
        PluginConfig config = PluginConfig.of("inner", "consistent-hash", "inner.virtual-nodes", "5", "other", "x");

        assertThat(config.section("inner").values()).isEqualTo(Map.of("virtual-nodes", "5"));
    }

    @Test
    void shouldNotChangeWhenTheSourceMapChanges() {
        Map<String, String> source = new HashMap<>(Map.of("a", "1"));
        PluginConfig config = new PluginConfig(source);

        source.put("a", "2");

        assertThat(config.string("a")).contains("1");
        assertThatThrownBy(() -> config.values().put("b", "3")).isInstanceOf(UnsupportedOperationException.class);
    }
}
