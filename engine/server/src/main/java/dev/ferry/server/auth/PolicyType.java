package dev.ferry.server.auth;

/** A user's custom entries decide first; the default entries only when none of the custom ones matches. */
public enum PolicyType {
    CUSTOM("Custom"), DEFAULT("Default");

    private final String label;

    PolicyType(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** The type spelled {@code text} (any case), or {@code null}. */
    public static PolicyType parse(String text) {
        return Named.parse(PolicyType.class, text, PolicyType::label);
    }
}
