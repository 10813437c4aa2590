package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.client.peer.ApachePeer;
import dev.ferry.server.cli.FerryServerCommand;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.remoting.protocol.body.AclInfo;
import org.apache.rocketmq.remoting.protocol.body.UserInfo;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code ferry-server admin user|acl} against Apache RocketMQ 5.3.3 with ACL 2.0 on, signed with a credentials file in
 * the form of mqadmin's {@code conf/tools.yml}; what it made is read back with Apache's own admin client.
 */
@Tag("integration")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AdminUserAclCliTest {
    @TempDir
    static Path dir;
    private ApachePeer apache;
    private DefaultMQAdminExt oracle;
    private Path tools;

    /** What a run printed and how it ended. */
    record Run(int exit, String out, String err) {
    }

    @BeforeAll
    void start() throws Exception {
        apache = ApachePeer.startWithAcl();
        tools = Files.writeString(dir.resolve("tools.yml"), "accessKey: " + ApachePeer.SUPER_USER + "\nsecretKey: "
                + ApachePeer.SUPER_PASSWORD + "\n");
        oracle = new DefaultMQAdminExt(new AclClientRPCHook(new SessionCredentials(ApachePeer.SUPER_USER,
                ApachePeer.SUPER_PASSWORD)));
        oracle.setNamesrvAddr(apache.nameServerAddress());
        oracle.setInstanceName(ClientTestSupport.unique("acl-oracle"));
        oracle.start();
    }

    @AfterAll
    void stop() {
        if (oracle != null) {
            oracle.shutdown();
        }
        if (apache != null) {
            apache.close();
        }
    }

    private Run admin(String... args) {
        List<String> all = new ArrayList<>(List.of("admin", "--namesrv", apache.nameServerAddress(), "--credentials",
                tools.toString()));
        all.addAll(List.of(args));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = new CommandLine(new FerryServerCommand()).setOut(new PrintWriter(out))
                .setErr(new PrintWriter(err)).execute(all.toArray(String[]::new));
        return new Run(exit, out.toString(), err.toString());
    }

    private static String succeeded(Run run) {
        assertThat(run.exit()).as("exit code; stderr: %s", run.err()).isZero();
        return run.out();
    }

    @Test
    void shouldManageApachesUsersAndPolicies() throws Exception {
        String broker = apache.brokerAddress();
        Path password = Files.writeString(dir.resolve("password"), "bob-pass\n");
        assertThat(succeeded(runWithStdin(password, "user", "create", "bob", "--password", "--type", "Normal")))
                .isEqualTo("created user bob on " + broker + "\n");
        UserInfo bob = oracle.getUser(broker, "bob");
        assertThat(bob.getPassword()).isEqualTo("bob-pass");
        assertThat(bob.getUserType()).isEqualTo("Normal");

        assertThat(succeeded(admin("user", "list", "--filter", "bo")))
                .containsPattern(cells(broker, "bob", "Normal", "enable"));
        assertThat(succeeded(admin("--broker", broker, "user", "get", "bob")))
                .containsPattern(cells(broker, "bob", "Normal", "enable"));
        assertThat(succeeded(admin("user", "update", "bob", "--status", "disable", "--cluster", "DefaultCluster")))
                .isEqualTo("updated user bob on " + broker + "\n");
        assertThat(oracle.getUser(broker, "bob").getUserStatus()).isEqualTo("disable");

        assertThat(succeeded(admin("acl", "create", "User:bob", "--resources", "Topic:orders,Group:billing",
                "--actions", "Pub,Sub", "--source-ips", "10.0.0.0/8", "--decision", "Allow")))
                .isEqualTo("created acl of User:bob on " + broker + "\n");
        assertThat(succeeded(admin("acl", "update", "User:bob", "--resources", "Topic:audit", "--actions", "Sub",
                "--decision", "Deny"))).isEqualTo("updated acl of User:bob on " + broker + "\n");
        AclInfo acl = oracle.getAcl(broker, "User:bob");
        assertThat(acl.getPolicies()).flatExtracting(AclInfo.PolicyInfo::getEntries)
                .extracting(AclInfo.PolicyEntryInfo::getResource)
                .containsExactlyInAnyOrder("Topic:orders", "Group:billing", "Topic:audit");
        String got = succeeded(admin("acl", "get", "User:bob"));
        assertThat(got).containsPattern(cells(broker, "User:bob", "Custom", "Topic:orders", "Pub,Sub", "10.0.0.0/8",
                "Allow"));
        assertThat(got).containsPattern(cells(broker, "User:bob", "Custom", "Topic:audit", "Sub", "-", "Deny"));
        String listed = succeeded(admin("acl", "list", "--subject", "User:bob", "--resource", "Topic:"));
        assertThat(listed).contains("Topic:orders").doesNotContain("Group:billing");

        assertThat(succeeded(admin("acl", "delete", "User:bob", "--resource", "Topic:audit")))
                .isEqualTo("deleted acl of User:bob on Topic:audit from " + broker + "\n");
        assertThat(oracle.getAcl(broker, "User:bob").getPolicies()).flatExtracting(AclInfo.PolicyInfo::getEntries)
                .extracting(AclInfo.PolicyEntryInfo::getResource).doesNotContain("Topic:audit");
        assertThat(succeeded(admin("acl", "delete", "User:bob"))).contains("deleted acl of User:bob from " + broker);
        assertThat(succeeded(admin("user", "delete", "bob"))).isEqualTo("deleted user bob from " + broker + "\n");
        assertThat(oracle.getUser(broker, "bob")).isNull();
    }

    @Test
    void shouldRefuseUnsignedOrWronglySignedRequestsWithOneLine() throws Exception {
        Path wrong = Files.writeString(dir.resolve("wrong.yml"), "accessKey: rocketmq\nsecretKey: not-it\n");
        String broker = apache.brokerAddress();

        assertThat(refused("admin", "--broker", broker, "--credentials", wrong.toString(), "user", "list"))
                .isEqualTo("broker " + broker + " answered NO_PERMISSION to AUTH_LIST_USER: check signature failed.");
        assertThat(refused("admin", "--broker", broker, "acl", "list"))
                .isEqualTo("broker " + broker + " answered NO_PERMISSION to AUTH_LIST_ACL: username cannot be null.");
    }

    /** The one line on standard error of a run that ended with exit code 1 and printed nothing else. */
    private static String refused(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = new CommandLine(new FerryServerCommand()).setOut(new PrintWriter(out))
                .setErr(new PrintWriter(err)).execute(args);
        assertThat(exit).isEqualTo(1);
        assertThat(out.toString()).isEmpty();
        assertThat(err.toString().lines()).hasSize(1);
        return err.toString().strip();
    }

    /** {@code admin ARGS} reading standard input from {@code input}, as a pipe would give it. */
    private Run runWithStdin(Path input, String... args) throws Exception {
        InputStream stdin = System.in;
        try (InputStream piped = Files.newInputStream(input)) {
            System.setIn(piped);
            return admin(args);
        } finally {
            System.setIn(stdin);
        }
    }

    /** A table row of these cells, however wide the columns. */
    private static String cells(String... cells) {
        return Arrays.stream(cells).map(Pattern::quote).collect(Collectors.joining("\\s+", "(?m)^", "\\s*$"));
    }
}
