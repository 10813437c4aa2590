package dev.ferry.bench.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.bench.faults.FaultFigures.GroupFigures;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HistoryCheckerTest {
    private final List<Op> history = new ArrayList<>();

    private void send(long time, String key, String topic, String outcome, String broker, int queue,
                      Map<String, String> attrs) {
        history.add(Op.of(time, "ferry-producer", "invoke", key, topic, attrs));
        history.add(new Op(time + 1, "ferry-producer", outcome, key, topic, outcome.equals("ok") ? broker : "-",
                outcome.equals("ok") ? queue : -1, -1, attrs));
    }

    private void recv(long time, String process, String group, String key, String topic, String broker, int queue) {
        history.add(new Op(time, process, "recv", key, topic, broker, queue, 0, Map.of("group", group)));
    }

    private GroupFigures group(String name) {
        return HistoryChecker.check(history).groups().get(name);
    }

    @Test
    void shouldCountAnAcknowledgedMessageAGroupNeverReceivedAsLost() {
        send(10, "p-plain-0", FaultClient.PLAIN, "ok", "broker-a", 0, Map.of());
        send(20, "p-plain-1", FaultClient.PLAIN, "ok", "broker-a", 1, Map.of());
        recv(30, "c1", "ferry-plain", "p-plain-0", FaultClient.PLAIN, "broker-a", 0);
        recv(40, "c1", "apache-plain", "p-plain-0", FaultClient.PLAIN, "broker-a", 0);
        recv(41, "c1", "apache-plain", "p-plain-1", FaultClient.PLAIN, "broker-a", 1);

        assertThat(group("ferry-plain").lost()).isEqualTo(1);
        assertThat(group("ferry-plain").lostKeys()).containsExactly("p-plain-1");
        assertThat(group("apache-plain").lost()).isZero();
        assertThat(HistoryChecker.check(history).violated()).isTrue();
    }

    @Test
    void shouldAllowUnknownOutcomesEitherWayAndCountThoseDelivered() {
        send(10, "p-plain-0", FaultClient.PLAIN, "unknown", "-", -1, Map.of());
        send(20, "p-plain-1", FaultClient.PLAIN, "unknown", "-", -1, Map.of());
        recv(30, "c1", "ferry-plain", "p-plain-0", FaultClient.PLAIN, "broker-a", 0);

        GroupFigures ferry = group("ferry-plain");
        assertThat(ferry.lost()).isZero();
        assertThat(ferry.unknownDelivered()).isEqualTo(1);
        assertThat(ferry.violated()).isFalse();
        assertThat(HistoryChecker.check(history).unknown()).isEqualTo(2);
    }

    @Test
    void shouldFlagWhatNoProducerSentAndWhatASurelyFailedSendDelivered() {
        send(10, "p-plain-0", FaultClient.PLAIN, "fail", "-", -1, Map.of());
        recv(30, "c1", "ferry-plain", "p-plain-0", FaultClient.PLAIN, "broker-a", 0);
        recv(31, "c1", "ferry-plain", "never-sent", FaultClient.PLAIN, "broker-a", 0);

        assertThat(group("ferry-plain").failedDelivered()).isEqualTo(1);
        assertThat(group("ferry-plain").unexpected()).isEqualTo(1);
        assertThat(group("ferry-plain").violated()).isTrue();
    }

    @Test
    void shouldCountDuplicatesWithoutCallingThemViolations() {
        send(10, "p-plain-0", FaultClient.PLAIN, "ok", "broker-a", 0, Map.of());
        recv(30, "c1", "ferry-plain", "p-plain-0", FaultClient.PLAIN, "broker-a", 0);
        recv(90, "c2", "ferry-plain", "p-plain-0", FaultClient.PLAIN, "broker-a", 0);

        assertThat(group("ferry-plain").duplicates()).isEqualTo(1);
        assertThat(group("ferry-plain").violated()).isFalse();
    }

    @Test
    void shouldCallADuplicateOfAnExactlyOnceGroupDeclaredInTheHistoryAViolation() {
        history.add(ConsumerGroup.exactlyOnceOfOrdered("liberty-once").declaration(1));
        send(10, "p-order-0", FaultClient.ORDER, "ok", "broker-a", 0, Map.of("order", "k0", "seq", "0"));
        send(20, "p-order-1", FaultClient.ORDER, "ok", "broker-a", 0, Map.of("order", "k0", "seq", "1"));
        recv(30, "liberty", "liberty-once", "p-order-0", FaultClient.ORDER, "broker-a", 0);
        recv(31, "liberty", "liberty-once", "p-order-1", FaultClient.ORDER, "broker-a", 0);
        assertThat(group("liberty-once").violated()).as("each message once").isFalse();

        recv(90, "liberty", "liberty-once", "p-order-1", FaultClient.ORDER, "broker-a", 0);

        GroupFigures once = group("liberty-once");
        assertThat(once.expected()).isEqualTo(2);
        assertThat(once.duplicates()).isEqualTo(1);
        assertThat(once.group().orderly()).isTrue();
        assertThat(once.violated()).isTrue();
        assertThat(group("ferry-order").group().exactlyOnce()).isFalse();
    }

    @Test
    void shouldCountWhatADeclaredGroupNeverReceivedAsLostAndLeaveUndeclaredGroupsOut() {
        send(10, "p-order-0", FaultClient.ORDER, "ok", "broker-a", 0, Map.of("order", "k0", "seq", "0"));
        assertThat(HistoryChecker.check(history).groups()).doesNotContainKey("liberty-once");

        history.add(ConsumerGroup.exactlyOnceOfOrdered("liberty-once").declaration(1));

        assertThat(group("liberty-once").lost()).isEqualTo(1);
    }

    @Test
    void shouldExpectOnlyCommittedTransactionsAndFlagARolledBackOneDelivered() {
        send(10, "p-tx-0", FaultClient.TX, "ok", "broker-a", 0, Map.of("decision", "commit"));
        send(20, "p-tx-1", FaultClient.TX, "ok", "broker-a", 0, Map.of("decision", "rollback"));
        send(30, "p-tx-3", FaultClient.TX, "ok", "broker-a", 0, Map.of("decision", "rollback"));
        recv(40, "c1", "ferry-plain", "p-tx-0", FaultClient.TX, "broker-a", 0);
        recv(41, "c1", "ferry-plain", "p-tx-1", FaultClient.TX, "broker-a", 0);

        GroupFigures ferry = group("ferry-plain");
        assertThat(ferry.expected()).isEqualTo(1);
        assertThat(ferry.lost()).isZero();
        assertThat(ferry.rolledBack()).isEqualTo(1);
    }

    @Test
    void shouldFlagATimedMessageDeliveredBeforeItsTime() {
        send(1000, "p-timed-0", FaultClient.TIMED, "ok", "broker-b", 2, Map.of("due", "2000"));
        send(1000, "p-timed-1", FaultClient.TIMED, "ok", "broker-b", 2, Map.of("due", "2000"));
        recv(1700, "c1", "ferry-plain", "p-timed-0", FaultClient.TIMED, "broker-b", 2);
        recv(2000, "c1", "ferry-plain", "p-timed-1", FaultClient.TIMED, "broker-b", 2);

        assertThat(group("ferry-plain").early()).isEqualTo(1);
        assertThat(group("ferry-plain").maxEarlyMillis()).isEqualTo(300);
    }

    @Test
    void shouldFlagAnOrderKeysLaterMessageReceivedFirstFromTheSameQueue() {
        for (int seq = 0; seq < 3; seq++) {
            send(10 + seq * 10, "p-order-" + seq * 8, FaultClient.ORDER, "ok", "broker-a", 3,
                    Map.of("order", "k0", "seq", Integer.toString(seq)));
        }
        recv(100, "c1", "ferry-order", "p-order-0", FaultClient.ORDER, "broker-a", 3);
        recv(101, "c1", "ferry-order", "p-order-16", FaultClient.ORDER, "broker-a", 3);
        recv(102, "c1", "ferry-order", "p-order-8", FaultClient.ORDER, "broker-a", 3);
        // replays of earlier messages after a rebalance are not reordering
        recv(103, "c2", "ferry-order", "p-order-0", FaultClient.ORDER, "broker-a", 3);
        recv(100, "c1", "apache-order", "p-order-0", FaultClient.ORDER, "broker-a", 3);
        recv(101, "c1", "apache-order", "p-order-8", FaultClient.ORDER, "broker-a", 3);
        recv(102, "c1", "apache-order", "p-order-16", FaultClient.ORDER, "broker-a", 3);
        recv(103, "c2", "apache-order", "p-order-8", FaultClient.ORDER, "broker-a", 3);

        assertThat(group("ferry-order").outOfOrder()).isEqualTo(1);
        assertThat(group("apache-order").outOfOrder()).isZero();
        assertThat(group("apache-order").duplicates()).isEqualTo(1);
    }

    @Test
    void shouldNotCompareAnOrderKeysMessagesStoredInDifferentQueues() {
        send(10, "p-order-0", FaultClient.ORDER, "ok", "broker-a", 3, Map.of("order", "k0", "seq", "0"));
        send(20, "p-order-8", FaultClient.ORDER, "ok", "broker-b", 3, Map.of("order", "k0", "seq", "1"));
        recv(100, "c1", "ferry-order", "p-order-8", FaultClient.ORDER, "broker-b", 3);
        recv(101, "c1", "ferry-order", "p-order-0", FaultClient.ORDER, "broker-a", 3);

        assertThat(group("ferry-order").outOfOrder()).isZero();
    }

    @Test
    void shouldMeasureRecoveryFromEachHealingToTheFirstSendAndReceiptOfTheBrokerGroupItHit() {
        Map<String, String> fault = new HashMap<>(Map.of("kind", "KILL", "target", "a-master", "broker", "broker-a",
                "detail", "-"));
        history.add(Op.of(1000, "harness", "fault", "-", "-", fault));
        history.add(Op.of(5000, "harness", "heal", "-", "-", fault));
        send(5100, "p-plain-0", FaultClient.PLAIN, "ok", "broker-b", 0, Map.of());
        send(5600, "p-plain-1", FaultClient.PLAIN, "ok", "broker-a", 0, Map.of());
        recv(5200, "c1", "ferry-plain", "p-plain-0", FaultClient.PLAIN, "broker-b", 0);
        recv(5900, "c1", "ferry-plain", "p-plain-1", FaultClient.PLAIN, "broker-a", 0);

        FaultFigures figures = HistoryChecker.check(history);
        assertThat(figures.faults()).containsEntry("KILL", 1L);
        assertThat(figures.sendRecovery()).containsExactly(601L); // its outcome line, 1 ms after the invoke
        assertThat(figures.recvRecovery()).containsExactly(900L);
        assertThat(figures.unrecovered()).isZero();
    }

    @Test
    void shouldCountAFaultNothingFollowedAsUnrecovered() {
        Map<String, String> fault = Map.of("kind", "CONSUMER_KILL", "target", "ferry-consumer-1", "broker", "-",
                "detail", "-");
        history.add(Op.of(5000, "harness", "heal", "-", "-", fault));
        send(5100, "p-plain-0", FaultClient.PLAIN, "ok", "broker-b", 0, Map.of());
        recv(5200, "ferry-consumer-2", "ferry-plain", "p-plain-0", FaultClient.PLAIN, "broker-b", 0);

        assertThat(HistoryChecker.check(history).unrecovered()).isEqualTo(1);
    }

    @Test
    void shouldTimeEachKilledConsumersRecoveryByItsOwnFirstReceipt() {
        for (String[] kill : new String[][] {{"1000", "ferry-consumer-1"}, {"9000", "liberty"},
                {"20000", "ferry-consumer-1"}}) {
            Map<String, String> fault = Map.of("kind", "CONSUMER_KILL", "target", kill[1], "broker", "-",
                    "detail", "-");
            history.add(Op.of(Long.parseLong(kill[0]), "harness", "heal", "-", "-", fault));
        }
        send(900, "p-plain-0", FaultClient.PLAIN, "ok", "broker-b", 0, Map.of());
        recv(1200, "liberty", "ferry-plain", "p-plain-0", FaultClient.PLAIN, "broker-b", 0); // not the killed one
        recv(1500, "ferry-consumer-1", "ferry-plain", "p-plain-0", FaultClient.PLAIN, "broker-b", 0);
        recv(11000, "liberty", "ferry-plain", "p-plain-0", FaultClient.PLAIN, "broker-b", 0);
        recv(20100, "ferry-consumer-1", "ferry-plain", "p-plain-0", FaultClient.PLAIN, "broker-b", 0);

        assertThat(HistoryChecker.check(history).consumerRecovery())
                .isEqualTo(Map.of("ferry-consumer-1", List.of(500L, 100L), "liberty", List.of(2000L)));
    }

    @Test
    void shouldReadBackWhatItWroteAndSkipATornLine() {
        Op op = new Op(12, "c1", "recv", "k", "T", "broker-a", 3, 44, Map.of("group", "g", "reconsume", "0"));
        assertThat(Op.parse(op.line())).isEqualTo(op);
        assertThat(Op.parse(op.line().substring(0, 20))).isNull();
    }
}
