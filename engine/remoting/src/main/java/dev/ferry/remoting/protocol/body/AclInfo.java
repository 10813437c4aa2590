package dev.ferry.remoting.protocol.body;

import java.util.List;

/**
 * A subject's policies as the ACL admin requests carry them: {@code subject} such as {@code User:alice}, each policy
 * {@code Custom} or {@code Default}, each entry a resource ({@code Topic:orders}, {@code Group:billing*}, {@code *}),
 * actions ({@code Pub}, {@code Sub}, ...), source addresses and {@code Allow} or {@code Deny}.
 */
public record AclInfo(String subject, List<PolicyInfo> policies) {

    /** One policy of a subject. */
    public record PolicyInfo(String policyType, List<PolicyEntryInfo> entries) {
    }

    /** One entry of a policy. */
    public record PolicyEntryInfo(String resource, List<String> actions, List<String> sourceIps, String decision) {
    }
}
