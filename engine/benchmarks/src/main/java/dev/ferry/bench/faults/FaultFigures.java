package dev.ferry.bench.faults;

import java.util.List;
import java.util.Map;

/**
 * What the checker found in one run's history.
 *
 * @param faults        faults started, by kind
 * @param invoked       sends attempted
 * @param ok            sends acknowledged (SEND_OK)
 * @param failed        sends that surely stored nothing (the broker refused, or no connection was made)
 * @param unknown       sends whose outcome is unknown (the answer was lost, or stored but not confirmed)
 * @param groups        per consumer group
 * @param sendRecovery  per healed fault, ms from its healing to the first acknowledged send to the broker group it hit
 *                      (to any, for a fault hitting none alone); faults with none before the run's end are left out
 * @param recvRecovery  the same for the first message received (from that broker group; by that process, for a
 *                      consumer killed)
 * @param unrecovered   healed faults after which no send or no receipt followed before the run's end
 * @param sendRecoveryByKind {@code sendRecovery} by the kind of fault
 * @param recvRecoveryByKind {@code recvRecovery} by the kind of fault
 * @param consumerRecovery   {@code recvRecovery} of the CONSUMER_KILL faults by the consumer killed, in the order of
 *                           the faults: how long each consumer took from its restart to its first receipt
 */
public record FaultFigures(Map<String, Long> faults, long invoked, long ok, long failed, long unknown,
                           Map<String, GroupFigures> groups, List<Long> sendRecovery, List<Long> recvRecovery,
                           long unrecovered, Map<String, List<Long>> sendRecoveryByKind,
                           Map<String, List<Long>> recvRecoveryByKind,
                           Map<String, List<Long>> consumerRecovery) {

    /**
     * One consumer group's figures.
     *
     * @param expected         acknowledged messages it must receive (a transaction only if committed)
     * @param received         distinct messages it received
     * @param lost             acknowledged messages never received
     * @param unexpected       messages received that no producer sent
     * @param failedDelivered  messages received whose send had surely failed
     * @param rolledBack       transactional messages received although rolled back
     * @param duplicates       deliveries beyond the first of a message
     * @param early            deliveries of a delayed or timer message before its time
     * @param maxEarlyMillis   how early the earliest of those was
     * @param outOfOrder       pairs of one order key's consecutive messages in one queue first received in the
     *                         wrong order (an orderly group)
     * @param unknownDelivered messages of unknown send outcome it received (allowed either way)
     * @param lostKeys         a few of the lost messages' keys, for a report
     * @param group            the group and what it promised
     */
    public record GroupFigures(long expected, long received, long lost, long unexpected, long failedDelivered,
                               long rolledBack, long duplicates, long early, long maxEarlyMillis, long outOfOrder,
                               long unknownDelivered, List<String> lostKeys, ConsumerGroup group) {

        /** Whether it broke a promise: lost, unexpected, failed yet delivered, rolled back yet delivered, early, out
         *  of order, or (an exactly-once group) duplicated. Unknown outcomes are allowed either way, and so are
         *  duplicates of an at-least-once group. */
        public boolean violated() {
            return lost + unexpected + failedDelivered + rolledBack + early + outOfOrder
                    + (group.exactlyOnce() ? duplicates : 0) > 0;
        }
    }

    public long totalFaults() {
        return faults.values().stream().mapToLong(Long::longValue).sum();
    }

    public boolean violated() {
        return groups.values().stream().anyMatch(GroupFigures::violated);
    }
}
