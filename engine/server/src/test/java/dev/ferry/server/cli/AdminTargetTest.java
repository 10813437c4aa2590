package dev.ferry.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class AdminTargetTest {
    private static final Map<String, String> NO_ENVIRONMENT = Map.of();

    @Test
    void shouldAskTheLocalNameServerOnRocketMqsPortWhenNothingNamesOne() {
        AdminTarget target = AdminTarget.resolve(null, null, NO_ENVIRONMENT::get, AdminTarget.DEFAULT_NAME_SERVER);

        assertThat(target.nameServer()).isEqualTo("127.0.0.1:9876");
        assertThat(target.broker()).isNull();
    }

    @Test
    void shouldUseNamesrvAddrFromTheEnvironmentWhenNoOptionIsGiven() {
        AdminTarget target = AdminTarget.resolve(null, null, Map.of("NAMESRV_ADDR", "10.0.0.5:9876")::get,
                "127.0.0.1:1");

        assertThat(target.nameServer()).isEqualTo("10.0.0.5:9876");
    }

    @Test
    void shouldPreferTheOptionToTheEnvironmentAndTheDefault() {
        AdminTarget target = AdminTarget.resolve(" ns:9876 ", "broker:10911",
                Map.of("NAMESRV_ADDR", "10.0.0.5:9876")::get, "127.0.0.1:1");

        assertThat(target).isEqualTo(new AdminTarget("ns:9876", "broker:10911"));
    }

    @Test
    void shouldIgnoreABlankNamesrvAddr() {
        AdminTarget target = AdminTarget.resolve(null, " ", Map.of("NAMESRV_ADDR", "  ")::get, "127.0.0.1:1");

        assertThat(target).isEqualTo(new AdminTarget("127.0.0.1:1", null));
    }
}
