package dev.ferry.remoting.protocol.body;

/**
 * A user as the ACL admin requests carry it (create, update, get, list): {@code userType} {@code Super} or
 * {@code Normal}, {@code userStatus} {@code enable} or {@code disable}. {@link #toString()} hides the password.
 */
public record UserInfo(String username, String password, String userType, String userStatus) {

    @Override
    public String toString() {
        return "UserInfo[username=" + username + ", password=(hidden), userType=" + userType + ", userStatus="
                + userStatus + "]";
    }
}
