package dev.ferry.server.auth;

import java.util.Objects;

/**
 * A resource as a policy entry names it: {@code *} (everything), {@code Topic:*} (every topic), {@code Topic:order*}
 * (topics whose name starts with {@code order}) or {@code Topic:orders} (that topic); likewise {@code Group:},
 * {@code Cluster:} and {@code Namespace:}.
 *
 * @param type    what kind of resource; {@link ResourceType#ANY} for {@code *}
 * @param name    the literal name or prefix; {@code null} when the pattern is {@link Pattern#ANY}
 * @param pattern how {@code name} matches
 */
public record AclResource(ResourceType type, String name, Pattern pattern) {
    /** The longest name or prefix: a group's name limit (topics' is shorter). */
    public static final int MAX_NAME_LENGTH = 255;

    /** How a resource's name matches. */
    public enum Pattern {
        ANY, PREFIXED, LITERAL
    }

    public AclResource {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(pattern, "pattern");
    }

    /**
     * Reads {@code text}.
     *
     * @throws IllegalArgumentException with RocketMQ's remark when it is not a resource
     */
    public static AclResource parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("The resource is null.");
        }
        String trimmed = text.trim();
        if (trimmed.equals("*")) {
            return new AclResource(ResourceType.ANY, null, Pattern.ANY);
        }
        int colon = trimmed.indexOf(':');
        ResourceType type = colon <= 0 ? null : ResourceType.parse(trimmed.substring(0, colon));
        if (type == null || type == ResourceType.ANY) {
            throw new IllegalArgumentException("The resource is null.");
        }
        String name = trimmed.substring(colon + 1);
        if (name.isEmpty()) {
            throw new IllegalArgumentException("The resource is null.");
        }
        if ((name.endsWith("*") ? name.length() - 1 : name.length()) > MAX_NAME_LENGTH) {
            throw new IllegalArgumentException("The resource name is longer than " + MAX_NAME_LENGTH
                    + " characters.");
        }
        if (name.equals("*")) {
            return new AclResource(type, null, Pattern.ANY);
        }
        if (name.endsWith("*")) {
            return new AclResource(type, name.substring(0, name.length() - 1), Pattern.PREFIXED);
        }
        return new AclResource(type, name, Pattern.LITERAL);
    }

    /**
     * How specific this is, as one number (greater is more specific): a named type over {@code *}, then a literal
     * name over a prefix over {@code Type:*}, then a longer prefix over a shorter one. The most specific matching
     * entry decides.
     */
    public long specificity() {
        long named = type == ResourceType.ANY ? 0 : 1;
        long patternRank = switch (pattern) {
            case ANY -> 0;
            case PREFIXED -> 1;
            case LITERAL -> 2;
        };
        long length = name == null ? 0 : name.length();
        return named << 40 | patternRank << 32 | length;
    }

    /** Whether this covers the resource {@code resourceType:resourceName}. */
    public boolean matches(ResourceType resourceType, String resourceName) {
        if (type == ResourceType.ANY) {
            return true;
        }
        if (type != resourceType) {
            return false;
        }
        return switch (pattern) {
            case ANY -> true;
            case PREFIXED -> resourceName != null && resourceName.startsWith(name);
            case LITERAL -> name.equals(resourceName);
        };
    }

    /** As policies write it: {@code *}, {@code Topic:*}, {@code Topic:order*}, {@code Topic:orders}. */
    public String key() {
        if (type == ResourceType.ANY) {
            return "*";
        }
        return type.label() + ":" + switch (pattern) {
            case ANY -> "*";
            case PREFIXED -> name + "*";
            case LITERAL -> name;
        };
    }

    @Override
    public String toString() {
        return key();
    }
}
