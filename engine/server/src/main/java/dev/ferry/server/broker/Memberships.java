package dev.ferry.server.broker;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Which groups each connection is a member of, so that neither one connection nor all of them together can make the
 * broker remember more memberships than it allows. Not thread-safe: the table that owns it guards it with its lock.
 */
final class Memberships {
    private final int maxPerConnection;
    private final int maxTotal;
    private final Map<String, Set<String>> byConnection = new HashMap<>();
    private int total;

    Memberships(int maxPerConnection, int maxTotal) {
        this.maxPerConnection = maxPerConnection;
        this.maxTotal = maxTotal;
    }

    /** Records that the connection is a member of the group; false, recording nothing, when that is one too many. */
    boolean join(String connection, String group) {
        Set<String> groups = byConnection.get(connection);
        if (groups != null && groups.contains(group)) {
            return true;
        }
        if (total >= maxTotal || groups != null && groups.size() >= maxPerConnection) {
            return false;
        }
        byConnection.computeIfAbsent(connection, c -> new HashSet<>()).add(group);
        total++;
        return true;
    }

    void leave(String connection, String group) {
        Set<String> groups = byConnection.get(connection);
        if (groups != null && groups.remove(group)) {
            total--;
            if (groups.isEmpty()) {
                byConnection.remove(connection);
            }
        }
    }

    int size() {
        return total;
    }

    /** Why a join was refused, for the heartbeat's remark. */
    String refusal() {
        return "a connection may be a member of " + maxPerConnection + " groups, and the broker keeps " + maxTotal
                + " memberships";
    }
}
