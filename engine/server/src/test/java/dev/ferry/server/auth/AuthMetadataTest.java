package dev.ferry.server.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.remoting.protocol.BadRequestException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuthMetadataTest {
    @TempDir
    Path dir;

    private static PolicyEntry allow(String resource) {
        return new PolicyEntry(AclResource.parse(resource), Set.of(Action.PUB), List.of(), Decision.ALLOW);
    }

    @Test
    void keepsUsersAndAclsAcrossReopeningAndDropsAUsersAclWithIt() {
        AuthMetadata metadata = new AuthMetadata(dir);
        metadata.createUser(new AuthUser("alice", "pw", UserType.NORMAL, UserStatus.ENABLE));
        metadata.putAcl("alice", Map.of(PolicyType.CUSTOM, List.of(allow("Topic:a"), allow("Topic:b"))));
        metadata.putAcl("alice", Map.of(PolicyType.CUSTOM, List.of(allow("Topic:a"))));
        AuthMetadata reopened = new AuthMetadata(dir);
        assertThat(reopened.acl("alice").orElseThrow().entries(PolicyType.CUSTOM)).hasSize(2);
        reopened.deleteAcl("alice", PolicyType.CUSTOM, AclResource.parse("Topic:b"));
        reopened.deleteUser("alice");
        AuthMetadata last = new AuthMetadata(dir);
        assertThat(last.user("alice")).isEmpty();
        assertThat(last.acl("alice")).isEmpty();
    }

    @Test
    void refusesWhatTheRulesRefuseWithRocketMqsRemarks() {
        AuthMetadata metadata = new AuthMetadata(dir);
        assertThatThrownBy(() -> metadata.createUser(new AuthUser(" ", "pw", UserType.NORMAL, UserStatus.ENABLE)))
                .isInstanceOf(BadRequestException.class).hasMessage("The username is blank");
        assertThatThrownBy(() -> metadata.createUser(new AuthUser("bob", " ", UserType.NORMAL, UserStatus.ENABLE)))
                .hasMessage("password can not be blank");
        assertThatThrownBy(() -> metadata.putAcl("nobody", Map.of(PolicyType.CUSTOM, List.of(allow("*")))))
                .hasMessage("The subject of User:nobody is not exist.");
        assertThatThrownBy(() -> metadata.updateUser("nobody", null, null, null)).hasMessage("The user is not exist");
    }

    @Test
    void refusesToStartFromAFileItCannotUseNamingTheDirectory() throws Exception {
        new AuthMetadata(dir).createUser(new AuthUser("alice", "pw", UserType.NORMAL, UserStatus.ENABLE));
        Path users = dir.resolve("users.json");
        Files.writeString(users, Files.readString(users).replace("\"Normal\"", "\"Weird\""));
        assertThatThrownBy(() -> new AuthMetadata(dir)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(dir.toString()).hasMessageContaining("userType").hasMessageNotContaining("pw");
    }
}
