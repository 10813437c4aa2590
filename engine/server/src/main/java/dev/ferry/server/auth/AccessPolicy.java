package dev.ferry.server.auth;

import java.util.ArrayList;
import java.util.List;

/**
 * Decides one {@link RequiredAccess} of a normal user from its ACL. Of the entries that match (resource, any of the
 * actions, source address), those of the custom policy count; the default policy's only when none of the custom
 * ones matches. The most specific resource decides (a literal name over a prefix, a longer prefix over a shorter one,
 * over {@code Type:*}, over {@code *}); among equally specific entries a Deny wins. Nothing matching means no.
 * Neither the order in which entries were created nor their order in a file changes a decision.
 */
public final class AccessPolicy {
    private AccessPolicy() {
    }

    /** @return {@code null} when allowed, else why not (RocketMQ's wording) */
    public static String refusal(Acl acl, RequiredAccess access, String sourceIp) {
        if (acl == null) {
            return "no matched policies.";
        }
        List<PolicyEntry> matching = matching(acl.entries(PolicyType.CUSTOM), access, sourceIp);
        if (matching.isEmpty()) {
            matching = matching(acl.entries(PolicyType.DEFAULT), access, sourceIp);
        }
        if (matching.isEmpty()) {
            return "no matched policies.";
        }
        AclResource mostSpecific = matching.stream().map(PolicyEntry::resource)
                .min(AclResource.MOST_SPECIFIC_FIRST).orElseThrow();
        boolean denied = matching.stream()
                .filter(e -> AclResource.MOST_SPECIFIC_FIRST.compare(e.resource(), mostSpecific) == 0)
                .anyMatch(e -> e.decision() == Decision.DENY);
        return denied ? "the decision is deny." : null;
    }

    private static List<PolicyEntry> matching(List<PolicyEntry> entries, RequiredAccess access, String sourceIp) {
        List<PolicyEntry> result = new ArrayList<>(2);
        for (PolicyEntry entry : entries) {
            if (entry.matches(access, sourceIp)) {
                result.add(entry);
            }
        }
        return result;
    }
}
