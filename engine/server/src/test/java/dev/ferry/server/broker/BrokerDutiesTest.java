package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ferry.server.broker.BrokerDuties.Duty;
import dev.ferry.server.broker.BrokerDuties.Lane;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BrokerDutiesTest {
    @TempDir
    Path dir;

    private final Map<Lane, ScheduledThreadPoolExecutor> lanes = new EnumMap<>(Lane.class);

    @AfterEach
    void stop() {
        lanes.values().forEach(ScheduledThreadPoolExecutor::shutdownNow);
    }

    private static BrokerDuties.Work nothing() {
        Runnable none = () -> { };
        return new BrokerDuties.Work(none, none, none, none, none, none, none, none, none, none, none);
    }

    private BrokerConfig.Builder config() {
        return BrokerConfig.builder(dir).registerInterval(Duration.ofSeconds(7))
                .offsetPersistInterval(Duration.ofSeconds(3)).transactionCheckInterval(Duration.ofSeconds(11));
    }

    private static Duty named(BrokerDuties duties, String what) {
        return duties.duties().stream().filter(duty -> duty.what().equals(what)).findFirst().orElseThrow();
    }

    @Test
    void shouldDeliverDelaysAndCheckTransactionsOnlyWhenMaster() {
        BrokerDuties master = new BrokerDuties(config().build(), false, nothing());
        BrokerDuties slave = new BrokerDuties(config().build(), true, nothing());

        assertThat(master.duties()).extracting(Duty::what)
                .contains("delivering delayed messages", "checking transactions").hasSize(11);
        assertThat(slave.duties()).extracting(Duty::what)
                .doesNotContain("delivering delayed messages", "checking transactions")
                .contains("holding timer messages", "persisting delay progress").hasSize(9);
    }

    @Test
    void shouldTakeThePeriodsTheConfigSets() {
        BrokerDuties duties = new BrokerDuties(config().build(), false, nothing());

        assertThat(named(duties, "registering with name servers").every()).isEqualTo(Duration.ofSeconds(7));
        assertThat(named(duties, "persisting consumer offsets").every()).isEqualTo(Duration.ofSeconds(3));
        assertThat(named(duties, "persisting delay progress").every()).isEqualTo(Duration.ofSeconds(3));
        assertThat(named(duties, "checking transactions").every()).isEqualTo(Duration.ofSeconds(11));
        assertThat(named(duties, "delivering delayed messages").every()).isEqualTo(BrokerDuties.DELAY_POLL);
    }

    @Test
    void shouldPutEachDutyOnItsLane() {
        BrokerDuties duties = new BrokerDuties(config().build(), false, nothing());

        assertThat(named(duties, "registering with name servers").lane()).isEqualTo(Lane.REGISTRAR);
        assertThat(named(duties, "holding timer messages").lane()).isEqualTo(Lane.TIMER);
        assertThat(duties.duties()).filteredOn(duty -> duty.lane() == Lane.SCHEDULER).hasSize(9);
        assertThat(named(duties, "sampling throughput").atFixedRate()).isTrue();
        assertThat(named(duties, "expiring silent clients").atFixedRate()).isFalse();
    }

    @Test
    void shouldScheduleEveryDutyOnTheExecutorOfItsLaneWhenStarted() {
        BrokerDuties duties = new BrokerDuties(config().build(), false, nothing());
        for (Lane lane : Lane.values()) {
            lanes.put(lane, new ScheduledThreadPoolExecutor(1));
        }

        duties.start(lanes::get);

        assertThat(lanes.get(Lane.SCHEDULER).getQueue()).hasSize(9);
        assertThat(lanes.get(Lane.REGISTRAR).getQueue()).hasSize(1);
        assertThat(lanes.get(Lane.TIMER).getQueue()).hasSize(1);
    }

    @Test
    void shouldKeepRunningADutyAfterItFails() {
        AtomicInteger runs = new AtomicInteger();
        Runnable failing = () -> {
            runs.incrementAndGet();
            throw new IllegalStateException("disk full");
        };
        Runnable none = () -> { };
        BrokerDuties duties = new BrokerDuties(config().build(), false,
                new BrokerDuties.Work(none, none, none, none, none, none, none, none, failing, none, none));
        for (Lane lane : Lane.values()) {
            lanes.put(lane, new ScheduledThreadPoolExecutor(1));
        }

        duties.start(lanes::get);

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(runs).hasValueGreaterThan(2));
    }

    @Test
    void shouldRefuseADutyWithoutAPositivePeriod() {
        assertThatThrownBy(() -> new Duty("x", Lane.SCHEDULER, Duration.ZERO, false, () -> { }))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("duty 'x' needs a positive period, not PT0S");
    }
}
