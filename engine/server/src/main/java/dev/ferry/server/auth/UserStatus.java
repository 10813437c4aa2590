package dev.ferry.server.auth;

/** A disabled user's requests fail authentication. */
public enum UserStatus {
    ENABLE("enable"), DISABLE("disable");

    private final String label;

    UserStatus(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** The status spelled {@code text} (any case), or {@code null}. */
    public static UserStatus parse(String text) {
        return Named.parse(UserStatus.class, text, UserStatus::label);
    }
}
