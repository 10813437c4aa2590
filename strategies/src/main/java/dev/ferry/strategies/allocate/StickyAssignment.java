package dev.ferry.strategies.allocate;

import dev.ferry.api.MessageQueue;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Computes a group's next queue-to-client assignment from the previous one, moving as few queues as a
 * balanced result (shares differ by at most one) allows. A pure function: same inputs, same result.
 *
 * <ol>
 * <li>Every queue whose previous owner is still present stays with it for now.</li>
 * <li>Shares: {@code q / c} each; the {@code q % c} larger shares go to the clients holding most
 *     (ties: earlier client id), which is what keeps moves minimal.</li>
 * <li>Clients above their share give up their last queues; those, new queues and the queues of departed
 *     clients go, in queue order, to the clients below their share, in client order.</li>
 * </ol>
 * From no history this yields the {@code averagely} layout, so a group that starts together agrees with
 * a freshly started member.
 */
final class StickyAssignment {

    private StickyAssignment() {
    }

    /**
     * @param previous the previous owner of each queue; queues or owners that are gone are ignored
     * @param queues the queues now, sorted
     * @param clientIds the clients now, sorted
     * @return the owner of every queue in {@code queues}
     */
    static Map<MessageQueue, String> next(Map<MessageQueue, String> previous, List<MessageQueue> queues,
            List<String> clientIds) {
        Map<String, List<MessageQueue>> held = new LinkedHashMap<>();
        clientIds.forEach(id -> held.put(id, new ArrayList<>()));
        TreeSet<MessageQueue> unowned = new TreeSet<>();
        for (MessageQueue queue : queues) {
            List<MessageQueue> ownerQueues = held.get(previous.get(queue));
            if (ownerQueues != null) {
                ownerQueues.add(queue);
            } else {
                unowned.add(queue);
            }
        }
        Map<String, Integer> shares = shares(held, queues.size());
        held.forEach((id, ownerQueues) -> {
            while (ownerQueues.size() > shares.get(id)) {
                unowned.add(ownerQueues.remove(ownerQueues.size() - 1));
            }
        });
        Deque<MessageQueue> toPlace = new ArrayDeque<>(unowned);
        held.forEach((id, ownerQueues) -> {
            while (ownerQueues.size() < shares.get(id)) {
                ownerQueues.add(toPlace.removeFirst());
            }
        });
        Map<MessageQueue, String> owners = new HashMap<>();
        held.forEach((id, ownerQueues) -> ownerQueues.forEach(queue -> owners.put(queue, id)));
        return owners;
    }

    private static Map<String, Integer> shares(Map<String, List<MessageQueue>> held, int queueCount) {
        List<String> clients = new ArrayList<>(held.keySet());
        int base = queueCount / clients.size();
        int larger = queueCount % clients.size();
        List<String> byHolding = new ArrayList<>(clients);
        // Stable sort: among equal holdings the earlier client id keeps its place.
        byHolding.sort(Comparator.comparingInt((String id) -> held.get(id).size()).reversed());
        Map<String, Integer> shares = new HashMap<>();
        for (int rank = 0; rank < byHolding.size(); rank++) {
            shares.put(byHolding.get(rank), base + (rank < larger ? 1 : 0));
        }
        return shares;
    }
}
