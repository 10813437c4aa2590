package dev.ferry.server.auth;

import java.util.Objects;

/**
 * A user: the name is the access key its requests carry, the password keys their signatures. {@link #toString()} never
 * shows the password.
 */
public record AuthUser(String name, String password, UserType type, UserStatus status) {

    public AuthUser {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(status, "status");
    }

    public boolean isSuper() {
        return type == UserType.SUPER;
    }

    public boolean isEnabled() {
        return status == UserStatus.ENABLE;
    }

    @Override
    public String toString() {
        return "AuthUser[name=" + name + ", password=(hidden), type=" + type.label() + ", status=" + status.label()
                + "]";
    }
}
