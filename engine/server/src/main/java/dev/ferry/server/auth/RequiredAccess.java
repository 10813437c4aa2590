package dev.ferry.server.auth;

import java.util.Objects;
import java.util.Set;

/**
 * What one request needs: any one of {@code actions} on the resource {@code type:name}. A request may need several
 * (a pull needs its topic and its group).
 */
public record RequiredAccess(ResourceType type, String name, Set<Action> actions) {

    public RequiredAccess {
        Objects.requireNonNull(type, "type");
        actions = Set.copyOf(actions);
    }

    public static RequiredAccess topic(String name, Action... actions) {
        return new RequiredAccess(ResourceType.TOPIC, name, Set.of(actions));
    }

    public static RequiredAccess group(String name, Action... actions) {
        return new RequiredAccess(ResourceType.GROUP, name, Set.of(actions));
    }

    public static RequiredAccess cluster(String name, Action... actions) {
        return new RequiredAccess(ResourceType.CLUSTER, name, Set.of(actions));
    }

    /** {@code Topic:orders}, as refusals name it. */
    public String key() {
        return type.label() + ":" + name;
    }
}
