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

    public PolicyEntry {
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(decision, "decision");
        if (actions == null || actions.isEmpty()) {
            throw new IllegalArgumentException("The actions is empty.");
        }
        actions = Set.copyOf(EnumSet.copyOf(actions));
        sourceIps = sourceIps == null ? List.of() : List.copyOf(sourceIps);
        for (String range : sourceIps) {
            if (range == null || range.isBlank()) {
                throw new IllegalArgumentException("The source ip is empty.");
            }
            if (!AddressRanges.isValid(range)) {
                throw new IllegalArgumentException("The source ip is invalid.");
            }
        }
    }

    /** Whether this entry speaks about {@code access} from {@code sourceIp}. */
    public boolean matches(RequiredAccess access, String sourceIp) {
        if (!resource.matches(access.type(), access.name())) {
            return false;
        }
        if (!actions.contains(Action.ALL) && access.actions().stream().noneMatch(actions::contains)) {
            return false;
        }
        return sourceIps.isEmpty() || sourceIps.stream().anyMatch(range -> AddressRanges.contains(range, sourceIp));
    }
}
