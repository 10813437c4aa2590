package dev.ferry.remoting;

import dev.ferry.format.ConfigProblems;
import java.util.Objects;

/**
 * A user's name and secret as RocketMQ's ACL knows them: the access key travels with every signed request, the secret
 * key only keys the signature. {@link #toString()} never shows the secret.
 *
 * @param accessKey the user name
 * @param secretKey the password
 */
public record Credentials(String accessKey, String secretKey) {
    private static final ConfigProblems CHECK = ConfigProblems.FAIL_FAST;

    public Credentials {
        CHECK.require(accessKey != null && !accessKey.isBlank(), "accessKey", accessKey, "must not be blank");
        // the value is not shown: it is a secret
        CHECK.require(secretKey != null && !secretKey.isEmpty(), "secretKey", "(hidden)", "must not be empty");
    }

    @Override
    public String toString() {
        return "Credentials[accessKey=" + accessKey + ", secretKey=(hidden)]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Credentials other && accessKey.equals(other.accessKey)
                && java.security.MessageDigest.isEqual(secretKey.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                        other.secretKey.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    @Override
    public int hashCode() {
        return Objects.hash(accessKey);
    }
}
