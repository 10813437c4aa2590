package dev.ferry.server.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.remoting.Credentials;
import dev.ferry.remoting.protocol.body.UserInfo;
import dev.ferry.server.FerryServerConfig;
import dev.ferry.server.FerryServerProperties;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Passwords never reach a toString, a config error or a refusal. */
class SecretsTest {
    private static final String SECRET = "s3cr3t-Value";

    @TempDir
    Path dir;

    @Test
    void toStringsHideThePassword() {
        assertThat(new Credentials("alice", SECRET).toString()).contains("alice").doesNotContain(SECRET);
        assertThat(new AuthUser("alice", SECRET, UserType.NORMAL, UserStatus.ENABLE).toString())
                .contains("alice").doesNotContain(SECRET);
        assertThat(new UserInfo("alice", SECRET, "Normal", "enable").toString()).doesNotContain(SECRET);
        AuthConfig config = new AuthConfig(true, true, java.util.Optional.of(new Credentials("admin", SECRET)),
                java.util.Optional.empty());
        assertThat(config.toString()).doesNotContain(SECRET);
    }

    @Test
    void configKeysTakeApachesJsonAndNeverEchoIt() {
        Properties properties = new Properties();
        properties.setProperty("authenticationEnabled", "true");
        properties.setProperty("authorizationEnabled", "true");
        properties.setProperty("initAuthenticationUser", "{\"username\":\"rocketmq\",\"password\":\"" + SECRET + "\"}");
        FerryServerConfig config = FerryServerProperties.apply(FerryServerConfig.builder(dir), properties).build();
        assertThat(config.auth().initUser()).contains(new Credentials("rocketmq", SECRET));
        assertThat(config.broker().nameServerCredentials()).contains(new Credentials("rocketmq", SECRET));
        assertThat(config.toString()).doesNotContain(SECRET);

        properties.setProperty("initAuthenticationUser", "{\"username\":\"rocketmq\",\"password\":" + SECRET + "}");
        assertThatThrownBy(() -> FerryServerProperties.apply(FerryServerConfig.builder(dir), properties))
                .hasMessageContaining("initAuthenticationUser").hasMessageNotContaining(SECRET);
        Properties noUser = new Properties();
        noUser.setProperty("authenticationEnabled", "true");
        assertThatThrownBy(() -> FerryServerProperties.apply(FerryServerConfig.builder(dir), noUser).build())
                .hasMessageContaining("needs initAuthenticationUser or innerClientAuthenticationCredentials");
        Properties badMode = new Properties();
        badMode.setProperty("tlsMode", "strict");
        assertThatThrownBy(() -> FerryServerProperties.apply(FerryServerConfig.builder(dir), badMode))
                .hasMessageContaining("tlsMode = strict");
    }

    @Test
    void theUsersFileIsReadableByItsOwnerOnly() throws Exception {
        AuthMetadata metadata = new AuthMetadata(dir.resolve("auth"));
        metadata.createUser(new AuthUser("alice", SECRET, UserType.NORMAL, UserStatus.ENABLE));
        if (java.nio.file.FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            assertThat(java.nio.file.attribute.PosixFilePermissions.toString(
                    java.nio.file.Files.getPosixFilePermissions(dir.resolve("auth")))).isEqualTo("rwx------");
        }
        assertThat(new AuthMetadata(dir.resolve("auth")).user("alice")).map(AuthUser::password).contains(SECRET);
    }
}
