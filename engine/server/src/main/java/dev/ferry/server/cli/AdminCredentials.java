package dev.ferry.server.cli;

import static dev.ferry.server.cli.AdminTarget.given;

import dev.ferry.remoting.Credentials;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * Who admin requests are signed as, never taken from a command-line password: a credentials file in the form of
 * RocketMQ's {@code conf/tools.yml} ({@code --credentials}), else the environment ({@value #ACCESS_KEY_VARIABLE},
 * {@value #SECRET_KEY_VARIABLE}); {@code --access-key} names the user either way. No credentials at all means the
 * requests go unsigned, for a cluster with authentication off.
 */
final class AdminCredentials {
    static final String ACCESS_KEY_VARIABLE = "FERRY_ADMIN_ACCESS_KEY";
    static final String SECRET_KEY_VARIABLE = "FERRY_ADMIN_SECRET_KEY";

    private AdminCredentials() {
    }

    /**
     * @param accessKeyOption {@code --access-key}, or {@code null}
     * @param file            {@code --credentials}, or {@code null}
     * @param environment     reads an environment variable ({@code null} when unset)
     * @return the credentials, or {@code null} for unsigned requests
     * @throws AdminCalls.BadSetup when only half of a user name and secret is given, or the file is unusable
     */
    static Credentials resolve(String accessKeyOption, Path file, UnaryOperator<String> environment) {
        if (file != null) {
            Credentials read = CredentialsFile.read(file);
            return given(accessKeyOption) ? new Credentials(accessKeyOption.trim(), read.secretKey()) : read;
        }
        String accessKey = given(accessKeyOption) ? accessKeyOption.trim() : environment.apply(ACCESS_KEY_VARIABLE);
        String secretKey = environment.apply(SECRET_KEY_VARIABLE);
        if (!given(accessKey) && !given(secretKey)) {
            return null;
        }
        if (!given(secretKey)) {
            throw new AdminCalls.BadSetup("user " + accessKey + " has no secret: set " + SECRET_KEY_VARIABLE
                    + " or give --credentials FILE");
        }
        if (!given(accessKey)) {
            throw new AdminCalls.BadSetup(SECRET_KEY_VARIABLE + " is set but no user is named: give --access-key or "
                    + "set " + ACCESS_KEY_VARIABLE);
        }
        return new Credentials(accessKey.trim(), secretKey);
    }
}
