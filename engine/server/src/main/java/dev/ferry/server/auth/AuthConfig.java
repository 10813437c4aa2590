package dev.ferry.server.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ferry.remoting.Credentials;
import java.io.IOException;
import java.util.Optional;

/**
 * The ACL switches of a broker and its name server, with Apache RocketMQ's broker keys.
 *
 * @param authenticationEnabled every request must be signed by an enabled user
 * @param authorizationEnabled  every request must be allowed by its user's ACL (a super user's always is)
 * @param initUser              {@code initAuthenticationUser}: a super user created when absent
 * @param innerCredentials      {@code innerClientAuthenticationCredentials}: a super user created when absent, whose
 *                              credentials sign the broker's own requests (its registrations with name servers);
 *                              without it the broker signs with {@code initUser}'s
 */
public record AuthConfig(boolean authenticationEnabled, boolean authorizationEnabled, Optional<Credentials> initUser,
                         Optional<Credentials> innerCredentials) {

    public static final AuthConfig DISABLED = new AuthConfig(false, false, Optional.empty(), Optional.empty());
    private static final ObjectMapper JSON = new ObjectMapper();

    public AuthConfig {
        java.util.Objects.requireNonNull(initUser, "initUser");
        java.util.Objects.requireNonNull(innerCredentials, "innerCredentials");
        if (authenticationEnabled && initUser.isEmpty() && innerCredentials.isEmpty()) {
            throw new IllegalArgumentException("authenticationEnabled = true: needs initAuthenticationUser or "
                    + "innerClientAuthenticationCredentials, whose user signs the broker's registrations with the "
                    + "name server");
        }
    }

    /** The credentials the broker signs its own requests with, when authentication is on. */
    public Optional<Credentials> brokerCredentials() {
        return authenticationEnabled ? innerCredentials.or(() -> initUser) : Optional.empty();
    }

    public boolean anyEnabled() {
        return authenticationEnabled || authorizationEnabled;
    }

    /**
     * Reads {@code initAuthenticationUser}: {@code {"username":"rocketmq","password":"12345678"}}.
     *
     * @throws IllegalArgumentException naming the key, never the value (it holds a password)
     */
    public static Credentials parseUser(String key, String json) {
        return parse(key, json, "username", "password");
    }

    /** Reads {@code innerClientAuthenticationCredentials}: {@code {"accessKey":"...","secretKey":"..."}}. */
    public static Credentials parseCredentials(String key, String json) {
        return parse(key, json, "accessKey", "secretKey");
    }

    private static Credentials parse(String key, String json, String nameField, String secretField) {
        String rule = key + ": expected a JSON object with non-empty \"" + nameField + "\" and \"" + secretField
                + "\" (the value is not shown: it holds a password)";
        JsonNode node;
        try {
            node = JSON.readTree(json);
        } catch (IOException e) {
            throw new IllegalArgumentException(rule);
        }
        if (node == null || !node.isObject() || !node.path(nameField).isTextual()
                || !node.path(secretField).isTextual() || node.path(nameField).asText().isBlank()
                || node.path(secretField).asText().isEmpty()) {
            throw new IllegalArgumentException(rule);
        }
        return new Credentials(node.path(nameField).asText(), node.path(secretField).asText());
    }
}
