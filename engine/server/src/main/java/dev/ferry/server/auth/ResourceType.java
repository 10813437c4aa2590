package dev.ferry.server.auth;

/** The kinds of thing a policy names; {@link #ANY} is the resource {@code *}, which matches everything. */
public enum ResourceType {
    ANY("Any"), CLUSTER("Cluster"), NAMESPACE("Namespace"), TOPIC("Topic"), GROUP("Group");

    private final String label;

    ResourceType(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** The type spelled {@code text} (any case), or {@code null}. */
    public static ResourceType parse(String text) {
        return Named.parse(ResourceType.class, text, ResourceType::label);
    }
}
