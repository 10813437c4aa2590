package dev.ferry.server.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AccessPolicyTest {
    private static final String IP = "10.1.2.3";

    private static PolicyEntry entry(String resource, Decision decision, Action... actions) {
        return new PolicyEntry(AclResource.parse(resource), Set.of(actions), List.of(), decision);
    }

    private static Acl acl(List<PolicyEntry> custom, List<PolicyEntry> defaults) {
        Map<PolicyType, List<PolicyEntry>> policies = new EnumMap<>(PolicyType.class);
        policies.put(PolicyType.CUSTOM, custom);
        policies.put(PolicyType.DEFAULT, defaults);
        return new Acl("u", policies);
    }

    private static String decide(List<PolicyEntry> entries, RequiredAccess access) {
        return AccessPolicy.refusal(acl(entries, List.of()), access, IP);
    }

    @Test
    void theMostSpecificMatchingEntryDecidesInEveryOrder() {
        List<PolicyEntry> entries = new ArrayList<>(List.of(
                entry("*", Decision.ALLOW, Action.ALL),
                entry("Topic:*", Decision.DENY, Action.ALL),
                entry("Topic:test*", Decision.ALLOW, Action.ALL),
                entry("Topic:test-1", Decision.DENY, Action.ALL),
                entry("Topic:test-2-long*", Decision.DENY, Action.ALL)));
        for (int round = 0; round < 20; round++) {
            Collections.shuffle(entries);
            assertThat(decide(entries, RequiredAccess.topic("test-1", Action.PUB))).isEqualTo("the decision is deny.");
            assertThat(decide(entries, RequiredAccess.topic("test-2", Action.PUB))).isNull();
            assertThat(decide(entries, RequiredAccess.topic("test-2-longer", Action.PUB)))
                    .isEqualTo("the decision is deny.");
            assertThat(decide(entries, RequiredAccess.topic("abc", Action.PUB))).isEqualTo("the decision is deny.");
            assertThat(decide(entries, RequiredAccess.group("g", Action.SUB))).isNull();
        }
    }

    @Test
    void aDenyWinsOverAnEquallySpecificAllow() {
        // one policy keeps one entry per resource; the custom and default policies each may name it
        Acl acl = acl(List.of(entry("Topic:orders", Decision.ALLOW, Action.PUB),
                entry("Topic:orders*", Decision.DENY, Action.PUB), entry("Topic:orders*", Decision.ALLOW, Action.PUB)),
                List.of());
        assertThat(AccessPolicy.refusal(acl, RequiredAccess.topic("orders-eu", Action.PUB), IP))
                .isEqualTo("the decision is deny.");
        assertThat(AccessPolicy.refusal(acl, RequiredAccess.topic("orders", Action.PUB), IP)).isNull();
    }

    @Test
    void defaultEntriesDecideOnlyWhenNoCustomEntryMatches() {
        Acl acl = acl(List.of(entry("Topic:orders", Decision.ALLOW, Action.SUB)),
                List.of(entry("Topic:*", Decision.ALLOW, Action.PUB)));
        assertThat(AccessPolicy.refusal(acl, RequiredAccess.topic("orders", Action.SUB), IP)).isNull();
        assertThat(AccessPolicy.refusal(acl, RequiredAccess.topic("payments", Action.PUB), IP)).isNull();
        assertThat(AccessPolicy.refusal(acl, RequiredAccess.group("g", Action.SUB), IP))
                .isEqualTo("no matched policies.");
        assertThat(AccessPolicy.refusal(null, RequiredAccess.group("g", Action.SUB), IP))
                .isEqualTo("no matched policies.");
    }

    @Test
    void anEntryMatchesAnyOfTheNeededActionsAndOnlyItsSourceAddresses() {
        PolicyEntry fromTen = new PolicyEntry(AclResource.parse("Group:billing"), Set.of(Action.GET),
                List.of("10.0.0.0/8", "192.168.1.7"), Decision.ALLOW);
        RequiredAccess subOrGet = RequiredAccess.group("billing", Action.SUB, Action.GET);
        assertThat(fromTen.matches(subOrGet, "10.200.0.1")).isTrue();
        assertThat(fromTen.matches(subOrGet, "192.168.1.7")).isTrue();
        assertThat(fromTen.matches(subOrGet, "192.168.1.8")).isFalse();
        assertThat(fromTen.matches(RequiredAccess.group("billing", Action.PUB), "10.0.0.1")).isFalse();
        assertThat(new PolicyEntry(AclResource.parse("Group:billing"), Set.of(Action.ALL), List.of("::1"),
                Decision.ALLOW).matches(RequiredAccess.group("billing", Action.UPDATE), "0:0:0:0:0:0:0:1")).isTrue();
    }

    @Test
    void resourcesParseAndPrintAsRocketMqWritesThem() {
        assertThat(AclResource.parse("*").key()).isEqualTo("*");
        assertThat(AclResource.parse("topic:*").key()).isEqualTo("Topic:*");
        assertThat(AclResource.parse("Group:bill*").pattern()).isEqualTo(AclResource.Pattern.PREFIXED);
        assertThat(AclResource.parse("Cluster:DefaultCluster").matches(ResourceType.CLUSTER, "DefaultCluster"))
                .isTrue();
        for (String bad : List.of("", "Queue:x", "orders", "Topic:")) {
            assertThatThrownBy(() -> AclResource.parse(bad)).hasMessage("The resource is null.");
        }
        assertThatThrownBy(() -> new PolicyEntry(AclResource.parse("*"), Set.of(Action.PUB),
                List.of("example.com"), Decision.ALLOW)).hasMessage("The source ip is invalid.");
        assertThatThrownBy(() -> new PolicyEntry(AclResource.parse("*"), Set.of(Action.PUB),
                List.of("10.0.0.0/33"), Decision.ALLOW)).hasMessage("The source ip is invalid.");
        assertThatThrownBy(() -> AclResource.parse("Topic:" + "t".repeat(256)))
                .hasMessageContaining("longer than 255");
        assertThat(AclResource.parse("Group:" + "g".repeat(255) + "*").name()).hasSize(255);
        List<String> many = java.util.stream.IntStream.range(0, PolicyEntry.MAX_SOURCE_IPS + 1)
                .mapToObj(i -> "10.0.0." + (i % 256)).toList();
        assertThatThrownBy(() -> new PolicyEntry(AclResource.parse("*"), Set.of(Action.PUB), many, Decision.ALLOW))
                .hasMessageContaining("at most " + PolicyEntry.MAX_SOURCE_IPS);
        assertThatThrownBy(() -> new PolicyEntry(AclResource.parse("*"), Set.of(Action.PUB),
                java.util.Arrays.asList("10.0.0.1", null), Decision.ALLOW)).hasMessage("The source ip is empty.");
    }
}
