package dev.ferry.bench.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.bench.faults.FaultPlan.Fault;
import dev.ferry.bench.faults.FaultPlan.Kind;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class FaultPlanTest {
    private static final List<String> CONSUMERS = List.of("ferry-consumer-1", "apache-consumer-1");

    private static FaultPlan draw(long seed, boolean disk) {
        return FaultPlan.draw(seed, 120_000, 4_000, 10_000, 3_000, 6_000, CONSUMERS, disk);
    }

    @Test
    void shouldDrawTheSameFaultsFromTheSameSeed() {
        assertThat(draw(48, true)).isEqualTo(draw(48, true));
        assertThat(draw(48, true).faults()).isNotEqualTo(draw(49, true).faults());
    }

    @Test
    void shouldMeetEveryKindOnceBeforeAnyTwice() {
        List<Fault> faults = draw(7, true).faults();
        int kinds = Kind.values().length;
        assertThat(faults).hasSizeGreaterThanOrEqualTo(kinds);
        Set<Kind> first = faults.subList(0, kinds).stream().map(Fault::kind).collect(Collectors.toSet());
        assertThat(first).isEqualTo(EnumSet.allOf(Kind.class));
    }

    @Test
    void shouldHealEachFaultBeforeTheNextAndEndWithinTheRun() {
        List<Fault> faults = draw(11, false).faults();
        for (int i = 1; i < faults.size(); i++) {
            Fault previous = faults.get(i - 1);
            assertThat(faults.get(i).atMillis()).isGreaterThanOrEqualTo(previous.atMillis()
                    + previous.durationMillis() + 3_000);
        }
        Fault last = faults.get(faults.size() - 1);
        assertThat(last.atMillis() + last.durationMillis()).isLessThanOrEqualTo(120_000);
        assertThat(faults).noneMatch(f -> f.kind() == Kind.DISK_FULL);
    }

    @Test
    void shouldNameTheBrokerGroupAFaultHits() {
        assertThat(new Fault(0, 1, Kind.CUT, "a-ha", "").brokerGroup()).isEqualTo("broker-a");
        assertThat(new Fault(0, 1, Kind.KILL, "b-master", "").brokerGroup()).isEqualTo("broker-b");
        assertThat(new Fault(0, 1, Kind.PAUSE, "ns-1", "").brokerGroup()).isEqualTo("-");
    }
}
