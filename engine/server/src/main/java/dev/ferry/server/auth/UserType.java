package dev.ferry.server.auth;

/** A super user passes every authorization check and alone may manage users and policies. */
public enum UserType {
    SUPER("Super"), NORMAL("Normal");

    private final String label;

    UserType(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** The type spelled {@code text} (any case), or {@code null}. */
    public static UserType parse(String text) {
        return Named.parse(UserType.class, text, UserType::label);
    }
}
