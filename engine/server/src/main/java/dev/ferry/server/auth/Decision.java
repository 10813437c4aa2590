package dev.ferry.server.auth;

/** What a matching policy entry decides. */
public enum Decision {
    ALLOW("Allow"), DENY("Deny");

    private final String label;

    Decision(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** The decision spelled {@code text} (any case), or {@code null}. */
    public static Decision parse(String text) {
        return Named.parse(Decision.class, text, Decision::label);
    }
}
