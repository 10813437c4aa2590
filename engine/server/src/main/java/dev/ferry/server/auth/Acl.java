package dev.ferry.server.auth;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A user's policies: at most one entry per resource in each policy type.
 *
 * @param username the user ({@code User:username} is the subject)
 * @param policies the entries of each policy type; a type without entries is absent
 */
public record Acl(String username, Map<PolicyType, List<PolicyEntry>> policies) {

    public static final String SUBJECT_PREFIX = "User:";

    public Acl {
        Objects.requireNonNull(username, "username");
        EnumMap<PolicyType, List<PolicyEntry>> copy = new EnumMap<>(PolicyType.class);
        policies.forEach((type, entries) -> {
            if (!entries.isEmpty()) {
                copy.put(type, List.copyOf(entries));
            }
        });
        policies = java.util.Collections.unmodifiableMap(copy);
    }

    public String subject() {
        return SUBJECT_PREFIX + username;
    }

    /** The user named by a subject {@code User:name}, or {@code null} for any other subject. */
    public static String usernameOf(String subject) {
        if (subject == null || !subject.regionMatches(true, 0, SUBJECT_PREFIX, 0, SUBJECT_PREFIX.length())) {
            return null;
        }
        String name = subject.substring(SUBJECT_PREFIX.length());
        return name.isBlank() ? null : name;
    }

    public List<PolicyEntry> entries(PolicyType type) {
        return policies.getOrDefault(type, List.of());
    }

    /** This ACL with {@code added} in {@code type}: an entry for a resource already there replaces it. */
    public Acl merged(PolicyType type, List<PolicyEntry> added) {
        List<PolicyEntry> entries = new ArrayList<>(entries(type));
        for (PolicyEntry entry : added) {
            entries.removeIf(existing -> existing.resource().equals(entry.resource()));
            entries.add(entry);
        }
        Map<PolicyType, List<PolicyEntry>> next = new EnumMap<>(PolicyType.class);
        next.putAll(policies);
        next.put(type, entries);
        return new Acl(username, next);
    }

    /** This ACL without the entry for {@code resource} in {@code type}. */
    public Acl without(PolicyType type, AclResource resource) {
        List<PolicyEntry> entries = new ArrayList<>(entries(type));
        entries.removeIf(existing -> existing.resource().equals(resource));
        Map<PolicyType, List<PolicyEntry>> next = new EnumMap<>(PolicyType.class);
        next.putAll(policies);
        next.put(type, entries);
        return new Acl(username, next);
    }

    public boolean isEmpty() {
        return policies.isEmpty();
    }

    public int size() {
        return policies.values().stream().mapToInt(List::size).sum();
    }
}
