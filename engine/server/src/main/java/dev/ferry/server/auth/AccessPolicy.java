package dev.ferry.server.auth;

import java.util.List;

/**
 * Decides one {@link RequiredAccess} of a normal user from its ACL. Of the entries that match (resource, any of the
 * actions, source address), those of the custom policy count; the default policy's only when none of the custom
 * ones matches. The most specific resource decides (a literal name over a prefix, a longer prefix over a shorter one,
 * over {@code Type:*}, over {@code *}); among equally specific entries a Deny wins. Nothing matching means no.
 * Neither the order in which entries were created nor their order in a file changes a decision.
 */
public final class AccessPolicy {
    private static final String NO_MATCH = "no matched policies.";
    private static final String DENIED = "the decision is deny.";

    /** What one policy says about an access: nothing (no entry matches), allow or deny. */
    private enum Verdict { NONE, ALLOW, DENY }

    private AccessPolicy() {
    }

    /** @return {@code null} when allowed, else why not (RocketMQ's wording) */
    public static String refusal(Acl acl, RequiredAccess access, String sourceIp) {
        if (acl == null) {
            return NO_MATCH;
        }
        Verdict verdict = verdict(acl.entries(PolicyType.CUSTOM), access, sourceIp);
        if (verdict == Verdict.NONE) {
            verdict = verdict(acl.entries(PolicyType.DEFAULT), access, sourceIp);
        }
        return switch (verdict) {
            case NONE -> NO_MATCH;
            case DENY -> DENIED;
            case ALLOW -> null;
        };
    }

    /**
     * One pass over the entries, every request: of the matching ones, the most specific resource's decide, a Deny
     * among them wins.
     */
    private static Verdict verdict(List<PolicyEntry> entries, RequiredAccess access, String sourceIp) {
        long best = -1;
        boolean denied = false;
        for (int i = 0, n = entries.size(); i < n; i++) {
            PolicyEntry entry = entries.get(i);
            if (!entry.matches(access, sourceIp)) {
                continue;
            }
            long specificity = entry.resource().specificity();
            boolean deny = entry.decision() == Decision.DENY;
            if (specificity > best) {
                best = specificity;
                denied = deny;
            } else if (specificity == best) {
                denied |= deny;
            }
        }
        if (best < 0) {
            return Verdict.NONE;
        }
        return denied ? Verdict.DENY : Verdict.ALLOW;
    }
}
