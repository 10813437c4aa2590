package dev.ferry.server.auth;

import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One rule of a policy: {@code decision} for {@code actions} on {@code resource}, from {@code sourceIps} (any address
 * when empty; an address or a CIDR range each).
 */
public record PolicyEntry(AclResource resource, Set<Action> actions, List<String> sourceIps, Decision decision) {
    /** Source addresses one entry may name: what a request carries is bounded before it is kept. */
    public static final int MAX_SOURCE_IPS = 64;

    public PolicyEntry {
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(decision, "decision");
        if (actions == null || actions.isEmpty()) {
            throw new IllegalArgumentException("The actions is empty.");
        }
        actions = Set.copyOf(EnumSet.copyOf(actions));
        sourceIps = sourceIps == null ? List.of() : sourceIps;
        if (sourceIps.size() > MAX_SOURCE_IPS) {
            throw new IllegalArgumentException("An entry names at most " + MAX_SOURCE_IPS + " source ips; this one "
                    + sourceIps.size() + ".");
        }
        for (String range : sourceIps) {
            if (range == null || range.isBlank()) {
                throw new IllegalArgumentException("The source ip is empty.");
            }
            if (!AddressRanges.isValid(range)) {
                throw new IllegalArgumentException("The source ip is invalid.");
            }
        }
        sourceIps = List.copyOf(sourceIps); // checked first: a null address is a refusal, not a failure
    }

    /** Whether this entry speaks about {@code access} from {@code sourceIp}. */
    public boolean matches(RequiredAccess access, String sourceIp) {
        if (!resource.matches(access.type(), access.name())) {
            return false;
        }
        if (!actions.contains(Action.ALL) && !anyAction(access.actions())) {
            return false;
        }
        if (sourceIps.isEmpty()) {
            return true;
        }
        for (int i = 0, n = sourceIps.size(); i < n; i++) {
            if (AddressRanges.contains(sourceIps.get(i), sourceIp)) {
                return true;
            }
        }
        return false;
    }

    // loops, not streams: this runs for every entry of every checked request
    private boolean anyAction(Set<Action> wanted) {
        for (Action action : wanted) {
            if (actions.contains(action)) {
                return true;
            }
        }
        return false;
    }
}
