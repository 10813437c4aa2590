package dev.ferry.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.remoting.Credentials;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AdminCredentialsTest {
    private static final Map<String, String> NO_ENVIRONMENT = Map.of();

    @TempDir
    Path dir;

    private Path file(String text) throws IOException {
        return Files.writeString(dir.resolve("tools.yml"), text);
    }

    @Test
    void shouldSignNothingWhenNoCredentialsAreGiven() {
        assertThat(AdminCredentials.resolve(null, null, NO_ENVIRONMENT::get)).isNull();
    }

    @Test
    void shouldTakeUserAndSecretFromTheEnvironment() {
        Credentials credentials = AdminCredentials.resolve(null, null,
                Map.of("FERRY_ADMIN_ACCESS_KEY", "rocketmq", "FERRY_ADMIN_SECRET_KEY", "12345678")::get);

        assertThat(credentials).isEqualTo(new Credentials("rocketmq", "12345678"));
    }

    @Test
    void shouldLetAccessKeyNameTheUserOfTheSecretInTheEnvironment() {
        Credentials credentials = AdminCredentials.resolve("admin", null,
                Map.of("FERRY_ADMIN_ACCESS_KEY", "rocketmq", "FERRY_ADMIN_SECRET_KEY", "12345678")::get);

        assertThat(credentials).isEqualTo(new Credentials("admin", "12345678"));
    }

    @Test
    void shouldRefuseAUserWithoutASecret() {
        assertThatThrownBy(() -> AdminCredentials.resolve("rocketmq", null, NO_ENVIRONMENT::get))
                .isInstanceOf(AdminCalls.BadSetup.class)
                .hasMessage("user rocketmq has no secret: set FERRY_ADMIN_SECRET_KEY or give --credentials FILE");
    }

    @Test
    void shouldRefuseASecretWithoutAUser() {
        assertThatThrownBy(() -> AdminCredentials.resolve(null, null, Map.of("FERRY_ADMIN_SECRET_KEY", "s")::get))
                .isInstanceOf(AdminCalls.BadSetup.class)
                .hasMessageContaining("no user is named: give --access-key or set FERRY_ADMIN_ACCESS_KEY");
    }

    @Test
    void shouldReadTheFileRocketMqToolsRead() throws IOException {
        Path file = file("""
                # Licensed to the Apache Software Foundation (ASF) under one or more


                accessKey: rocketmq2
                secretKey: 12345678
                   \s
                """);

        assertThat(AdminCredentials.resolve(null, file, NO_ENVIRONMENT::get))
                .isEqualTo(new Credentials("rocketmq2", "12345678"));
    }

    @Test
    void shouldPreferTheFileToTheEnvironmentAndLetAccessKeyNameTheUser() throws IOException {
        Path file = file("accessKey: \"rocketmq2\"\nsecretKey: 'from file'\nother: ignored\n");
        Map<String, String> environment = Map.of("FERRY_ADMIN_ACCESS_KEY", "env", "FERRY_ADMIN_SECRET_KEY", "env");

        assertThat(AdminCredentials.resolve(null, file, environment::get))
                .isEqualTo(new Credentials("rocketmq2", "from file"));
        assertThat(AdminCredentials.resolve("other", file, environment::get))
                .isEqualTo(new Credentials("other", "from file"));
    }

    @Test
    void shouldNameTheFileAndLineButNotTheValueWhenALineIsNotKeyAndValue() throws IOException {
        Path file = file("accessKey: rocketmq\nhunter2-secret\n");

        assertThatThrownBy(() -> AdminCredentials.resolve(null, file, NO_ENVIRONMENT::get))
                .isInstanceOf(AdminCalls.BadSetup.class)
                .hasMessage("credentials file " + file + " line 2 is not 'key: value'")
                .message().doesNotContain("hunter2");
    }

    @Test
    void shouldRefuseAFileWithoutASecret() throws IOException {
        Path file = file("accessKey: rocketmq\nsecretKey:\n");

        assertThatThrownBy(() -> AdminCredentials.resolve(null, file, NO_ENVIRONMENT::get))
                .isInstanceOf(AdminCalls.BadSetup.class)
                .hasMessage("credentials file " + file + " needs both accessKey and secretKey");
    }

    @Test
    void shouldSayAMissingFileIsMissing() {
        Path missing = dir.resolve("absent.yml");

        assertThatThrownBy(() -> AdminCredentials.resolve(null, missing, NO_ENVIRONMENT::get))
                .isInstanceOf(AdminCalls.BadSetup.class)
                .hasMessage("cannot read credentials file " + missing + ": no such file");
    }

    @Test
    void shouldRefuseAFileTooLargeToBeCredentials() throws IOException {
        Path file = file("#".repeat((int) CredentialsFile.MAX_SIZE + 1));

        assertThatThrownBy(() -> AdminCredentials.resolve(null, file, NO_ENVIRONMENT::get))
                .isInstanceOf(AdminCalls.BadSetup.class)
                .hasMessageContaining("is larger than 65536 bytes");
    }
}
