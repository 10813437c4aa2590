package dev.ferry.server.auth;

import dev.ferry.remoting.protocol.body.AclInfo;
import dev.ferry.remoting.protocol.body.UserInfo;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Users and ACLs to and from the bodies of the admin requests, which are also the format of the files they are kept
 * in. Reading checks each part and fails with RocketMQ's remark for it.
 */
final class AuthBodies {
    private AuthBodies() {
    }

    static UserInfo toInfo(AuthUser user) {
        return new UserInfo(user.name(), user.password(), user.type().label(), user.status().label());
    }

    static AuthUser fromInfo(UserInfo info) {
        UserType type = info.userType() == null ? UserType.NORMAL : UserType.parse(info.userType());
        UserStatus status = info.userStatus() == null ? UserStatus.ENABLE : UserStatus.parse(info.userStatus());
        if (type == null) {
            throw new IllegalArgumentException("The userType is illegal.");
        }
        if (status == null) {
            throw new IllegalArgumentException("The userStatus is illegal.");
        }
        return new AuthUser(info.username(), info.password() == null ? "" : info.password(), type, status);
    }

    static AclInfo toInfo(Acl acl) {
        List<AclInfo.PolicyInfo> policies = new ArrayList<>();
        acl.policies().forEach((type, entries) -> policies.add(new AclInfo.PolicyInfo(type.label(),
                entries.stream().map(AuthBodies::toInfo).toList())));
        return new AclInfo(acl.subject(), policies);
    }

    private static AclInfo.PolicyEntryInfo toInfo(PolicyEntry entry) {
        return new AclInfo.PolicyEntryInfo(entry.resource().key(),
                EnumSet.copyOf(entry.actions()).stream().map(Action::label).toList(), entry.sourceIps(),
                entry.decision().label());
    }

    /** The policies of {@code info}, by type; each entry checked. */
    static Map<PolicyType, List<PolicyEntry>> policies(AclInfo info) {
        if (info.policies() == null || info.policies().isEmpty()) {
            throw new IllegalArgumentException("The policies is empty.");
        }
        Map<PolicyType, List<PolicyEntry>> result = new EnumMap<>(PolicyType.class);
        for (AclInfo.PolicyInfo policy : info.policies()) {
            PolicyType type = policy.policyType() == null ? PolicyType.CUSTOM : PolicyType.parse(policy.policyType());
            if (type == null) {
                throw new IllegalArgumentException("The policy type is illegal.");
            }
            if (policy.entries() == null || policy.entries().isEmpty()) {
                throw new IllegalArgumentException("The policy entries is empty.");
            }
            List<PolicyEntry> entries = result.computeIfAbsent(type, t -> new ArrayList<>());
            for (AclInfo.PolicyEntryInfo entry : policy.entries()) {
                PolicyEntry read = entry(entry);
                entries.removeIf(e -> e.resource().equals(read.resource()));
                entries.add(read);
            }
        }
        return result;
    }

    private static PolicyEntry entry(AclInfo.PolicyEntryInfo info) {
        AclResource resource = AclResource.parse(info.resource());
        Set<Action> actions = EnumSet.noneOf(Action.class);
        if (info.actions() != null) {
            for (String name : info.actions()) {
                Action action = Action.parse(name);
                if (action == null) {
                    throw new IllegalArgumentException("The action " + shown(name) + " is unknown; known: All, Pub, "
                            + "Sub, Create, Update, Delete, Get, List.");
                }
                actions.add(action);
            }
        }
        if (actions.isEmpty()) {
            throw new IllegalArgumentException("The actions is empty.");
        }
        Decision decision = Decision.parse(info.decision());
        if (decision == null) {
            throw new IllegalArgumentException("The decision is null or illegal.");
        }
        return new PolicyEntry(resource, actions, info.sourceIps(), decision);
    }

    /** A client's name in a remark, as RocketMQ writes it ({@code User:alice}): bounded, control characters dropped. */
    static String clean(String text) {
        if (text == null) {
            return "null";
        }
        String kept = text.codePoints().filter(c -> !Character.isISOControl(c)).limit(64)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
        return text.length() > 64 ? kept + "..." : kept;
    }

    /** A client's text in a remark: quoted, bounded, control characters dropped. */
    static String shown(String text) {
        if (text == null) {
            return "null";
        }
        return "'" + clean(text) + "'";
    }
}
