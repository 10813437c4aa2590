package dev.ferry.server.namesrv;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.ManualClock;
import dev.ferry.remoting.protocol.body.DataVersion;
import dev.ferry.remoting.protocol.body.TopicConfig;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a registration may do to the routes, when it comes from elsewhere and when the table is full. */
class RouteTableTest {
    private static final String REAL_HOST = "10.0.0.1";
    private static final String ATTACKER = "10.0.0.66";

    private final ManualClock clock = new ManualClock(1_000_000L);

    private static Map<String, TopicConfig> topics(String prefix, int count) {
        Map<String, TopicConfig> topics = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            topics.put(prefix + i, TopicConfig.of(prefix + i, 4));
        }
        return topics;
    }

    private static RouteTable.Outcome register(RouteTable table, String brokerName, String brokerAddr,
                                               Map<String, TopicConfig> topics, String channel, String host) {
        return table.register("DefaultCluster", brokerName, brokerAddr, 0, "", false, new DataVersion(0, 1, 1),
                topics, channel, host);
    }

    @Test
    void shouldKeepAtMostItsShareOfRoutesForOneBroker() {
        RouteTable table = new RouteTable(clock, 1_000, 10, 100, 100);

        RouteTable.Outcome outcome = register(table, "broker-a", "10.0.0.1:10911", topics("T", 15), "c1", REAL_HOST);

        assertThat(outcome.accepted()).isTrue();
        assertThat(outcome.topicsSkipped()).isEqualTo(5);
        assertThat(table.routeEntries()).isEqualTo(10);
    }

    @Test
    void shouldGiveARealBrokersNewTopicARouteTakenFromTheLargestWhenEveryRouteIsTaken() {
        RouteTable table = new RouteTable(clock, 100, 1_000, 100, 100);
        register(table, "broker-real", "10.0.0.1:10911", topics("Real", 5), "real", REAL_HOST);
        for (int b = 0; b < 3; b++) { // made-up brokers fill every route
            register(table, "fake-" + b, "10.0.0.66:" + (20000 + b), topics("Fake" + b + "-", 60), "f" + b, ATTACKER);
        }
        assertThat(table.routeEntries()).isEqualTo(100);

        RouteTable.Outcome outcome = register(table, "broker-real", "10.0.0.1:10911",
                Map.of("RealNew", TopicConfig.of("RealNew", 4)), "real", REAL_HOST);

        assertThat(outcome.topicsSkipped()).isZero();
        assertThat(table.route("RealNew")).isNotNull();
        assertThat(table.routeEntries()).isEqualTo(100);
        for (int i = 0; i < 5; i++) {
            assertThat(table.route("Real" + i)).as("the real broker's routes stay").isNotNull();
        }
    }

    @Test
    void shouldNotTakeARouteFromABrokerThatWouldThenHaveFewerThanTheOneAsking() {
        RouteTable table = new RouteTable(clock, 20, 1_000, 100, 100);
        register(table, "broker-a", "10.0.0.1:10911", topics("A", 10), "a", REAL_HOST);
        register(table, "broker-b", "10.0.0.2:10911", topics("B", 10), "b", "10.0.0.2");

        RouteTable.Outcome outcome = register(table, "broker-a", "10.0.0.1:10911",
                Map.of("ANew", TopicConfig.of("ANew", 4)), "a", REAL_HOST);

        assertThat(outcome.topicsSkipped()).isEqualTo(1);
        assertThat(table.route("ANew")).isNull();
        assertThat(table.route("B9")).isNotNull();
    }

    @Test
    void shouldRefuseARegistrationOfALiveBrokerOverAConnectionFromAnotherHost() {
        RouteTable table = new RouteTable(clock, 1_000, 1_000, 100, 100);
        register(table, "broker-a", "10.0.0.1:10911", topics("A", 1), "real", REAL_HOST);

        RouteTable.Outcome hijack = register(table, "broker-a", "10.0.0.1:10911",
                Map.of("A0", new TopicConfig("A0", 1, 1, 2, null, 0, false, Map.of())), "attacker", ATTACKER);
        RouteTable.Outcome reconnect = register(table, "broker-a", "10.0.0.1:10911", topics("A", 2), "again",
                REAL_HOST);

        assertThat(hijack.accepted()).isFalse();
        assertThat(hijack.refusal()).contains("registered from 10.0.0.1").contains("10.0.0.66");
        assertThat(table.route("A0").queueDatas().get(0).perm()).as("its routes unchanged").isEqualTo(6);
        assertThat(reconnect.accepted()).as("the broker itself over a new connection").isTrue();
    }

    @Test
    void shouldRefuseMoreBrokersFromOneHostThanItsShareAndTakeThemFromOthers() {
        RouteTable table = new RouteTable(clock, 1_000, 1_000, 100, 2);
        register(table, "fake-0", "10.0.0.66:1", Map.of(), "f0", ATTACKER);
        register(table, "fake-1", "10.0.0.66:2", Map.of(), "f1", ATTACKER);

        RouteTable.Outcome third = register(table, "fake-2", "10.0.0.66:3", Map.of(), "f2", ATTACKER);
        RouteTable.Outcome real = register(table, "broker-a", "10.0.0.1:10911", topics("A", 1), "real", REAL_HOST);

        assertThat(third.accepted()).isFalse();
        assertThat(third.refusal()).contains("2 brokers are registered from 10.0.0.66");
        assertThat(real.accepted()).isTrue();
        table.connectionClosed("f0");
        assertThat(register(table, "fake-2", "10.0.0.66:3", Map.of(), "f2", ATTACKER).accepted())
                .as("a broker gone gives its host's place back").isTrue();
    }
}
