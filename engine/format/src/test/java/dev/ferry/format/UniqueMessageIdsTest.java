package dev.ferry.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.Set;
import org.apache.rocketmq.common.message.MessageClientIDSetter;
import org.junit.jupiter.api.Test;

/** Unique ids against Apache's {@code MessageClientIDSetter}, which reads the address, pid and time out of them. */
class UniqueMessageIdsTest {
    private static final byte[] ADDRESS = {10, 1, 2, 3};

    @Test
    void shouldMakeIdsWhoseAddressPidAndTimeApacheReadsBack() {
        UniqueMessageIds ids = new UniqueMessageIds(ADDRESS, 4242, 7, Clock.system(), ZoneId.systemDefault());
        Instant before = Instant.now();

        String id = ids.next();

        assertThat(id).hasSize(32).matches("[0-9A-F]+");
        assertThat(MessageClientIDSetter.getIPStrFromID(id)).isEqualTo("10.1.2.3");
        assertThat(MessageClientIDSetter.getPidFromID(id)).isEqualTo(4242);
        Instant apacheReads = MessageClientIDSetter.getNearlyTimeFromID(id).toInstant();
        assertThat(Duration.between(before, apacheReads).abs()).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void shouldReadTheTimeOfApachesIdsAsApacheDoes() {
        long created = System.currentTimeMillis();
        String apache = MessageClientIDSetter.createUniqID();
        // both read an id made in the very millisecond of reading as a month old: let that millisecond pass
        while (System.currentTimeMillis() <= created + 1) {
            Thread.onSpinWait();
        }

        Instant apacheReads = MessageClientIDSetter.getNearlyTimeFromID(apache).toInstant();

        assertThat(UniqueMessageIds.nearlyTime(apache, Instant.now(), ZoneId.systemDefault())).isEqualTo(apacheReads);
        assertThat(Duration.between(Instant.ofEpochMilli(created), apacheReads).abs()).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void shouldCountFromTheNewMonthOnceItStartsAndReadOldIdsInTheMonthBefore() {
        ManualClock clock = new ManualClock(Instant.parse("2026-11-30T23:59:59.500Z"));
        UniqueMessageIds ids = new UniqueMessageIds(ADDRESS, 1, 1, clock, ZoneOffset.UTC);
        String november = ids.next();
        clock.setMillis(Instant.parse("2026-12-01T00:00:00.250Z").toEpochMilli());
        String december = ids.next();

        assertThat(december.substring(20, 28)).isEqualTo("000000FA");
        Instant now = Instant.parse("2026-12-01T00:00:01Z");
        assertThat(UniqueMessageIds.nearlyTime(november, now, ZoneOffset.UTC))
                .isEqualTo(Instant.parse("2026-11-30T23:59:59.500Z"));
        assertThat(UniqueMessageIds.nearlyTime(december, now, ZoneOffset.UTC))
                .isEqualTo(Instant.parse("2026-12-01T00:00:00.250Z"));
    }

    @Test
    void shouldNeverRepeatAnIdWithinOneMillisecond() {
        UniqueMessageIds ids = new UniqueMessageIds(new byte[16], 1, 1, new ManualClock(), ZoneOffset.UTC);
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 65_536; i++) {
            assertThat(seen.add(ids.next())).isTrue();
        }
        assertThat(seen.iterator().next()).hasSize(56);
    }

    @Test
    void shouldRefuseSomethingThatIsNotAnId() {
        assertThatThrownBy(() -> UniqueMessageIds.nearlyTime("XYZ", Instant.now(), ZoneOffset.UTC))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("XYZ");
        assertThatThrownBy(() -> new UniqueMessageIds(new byte[5], 1, 1, Clock.system(), ZoneOffset.UTC))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("5");
    }
}
