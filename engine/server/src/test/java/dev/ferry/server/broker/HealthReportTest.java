package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import dev.ferry.remoting.protocol.body.BrokerStatsBody;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class HealthReportTest {
    private final AtomicLong dispatchFailures = new AtomicLong(1);
    private final List<String> setAside = new ArrayList<>(List.of("orders:3"));
    private final AtomicInteger connections = new AtomicInteger(6);
    private final AtomicInteger heldPulls = new AtomicInteger(8);

    private HealthReport report() {
        return new HealthReport(
                new HealthReport.StoreFigures(dispatchFailures::get, () -> List.copyOf(setAside)),
                new HealthReport.ServerFigures(() -> 2, () -> 3, () -> 4, connections::get, () -> 7),
                new HealthReport.TableFigures(heldPulls::get, () -> 9, () -> 10, () -> 11, () -> 12, () -> 13));
    }

    @Test
    void shouldPutEachFigureInItsOwnFieldWhenReporting() {
        BrokerStatsBody.Health health = report().health();

        assertThat(health).isEqualTo(new BrokerStatsBody.Health(1, List.of("orders:3"), 2, 3, 4, 6, 7, 8, 9, 10, 11,
                12, 13));
    }

    @Test
    void shouldReadTheFiguresAfreshWhenReportingAgain() {
        HealthReport report = report();
        report.health();

        dispatchFailures.set(5);
        setAside.add("payments:0");
        connections.set(1);
        heldPulls.set(0);
        BrokerStatsBody.Health health = report.health();

        assertThat(health.dispatchFailures()).isEqualTo(5);
        assertThat(health.setAsideQueues()).containsExactly("orders:3", "payments:0");
        assertThat(health.connections()).isEqualTo(1);
        assertThat(health.heldPulls()).isZero();
    }

    @Test
    void shouldRefuseAMissingSourceWhenBuilt() {
        assertThatNullPointerException()
                .isThrownBy(() -> new HealthReport.ServerFigures(() -> 0, () -> 0, () -> 0, null, () -> 0))
                .withMessage("connections");
    }
}
