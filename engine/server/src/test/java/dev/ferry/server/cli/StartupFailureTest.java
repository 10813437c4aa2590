package dev.ferry.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.Clock;
import dev.ferry.remoting.testing.TestCertificates;
import dev.ferry.server.FerryServer;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Every way ferry-server, {@code namesrv} and {@code broker} fail to start ends the same way: exit code 2 and one
 * line on stderr naming the key to fix, the stack trace only with --verbose. A start that does not fail would block
 * until stopped: the timeout turns that into a failure.
 */
@Tag("integration")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StartupFailureTest {
    @TempDir
    Path dir;

    private record Run(int exit, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = FerryServerCommand.commandLine().setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
                .execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    /** The single line of a failed start with {@code args}. */
    private static String failure(String... args) {
        Run run = run(args);
        assertThat(run.exit()).as("exit code of %s", List.of(args)).isEqualTo(2);
        assertThat(run.err().lines().toList()).as("stderr of %s", List.of(args)).hasSize(1);
        assertThat(run.out()).isEmpty();
        return run.err().strip();
    }

    /** {@code args} after the options every run here starts with: its own store, any free ports. */
    private String[] server(String... args) {
        List<String> all = new ArrayList<>(List.of("--store-dir", dir.resolve("store").toString(),
                "--namesrv-port", "0", "--broker-port", "0"));
        all.addAll(List.of(args));
        return all.toArray(String[]::new);
    }

    private String[] tls(Path cert, Path key, String... more) {
        List<String> all = new ArrayList<>(List.of("--tls-mode", "enforcing", "--tls-cert-path", cert.toString(),
                "--tls-key-path", key.toString()));
        all.addAll(List.of(more));
        return server(all.toArray(String[]::new));
    }

    @Test
    void shouldNameTheFileAndTheKeyOfAnUnknownKeyWithoutTheUsageHelp() throws Exception {
        Path file = Files.writeString(dir.resolve("ferry.properties"), "brokerPrt=1\n");
        assertThat(failure(server("--config", file.toString()))).startsWith(file + ": unknown key 'brokerPrt'");
    }

    @Test
    void shouldNameTheKeyValueAndRuleOfABadValue() throws Exception {
        Path file = Files.writeString(dir.resolve("ferry.properties"), "flushMode=SOMETIMES\n");
        assertThat(failure(server("--config", file.toString()))).isEqualTo(file
                + ": flushMode = SOMETIMES: expected ASYNC_FLUSH or SYNC_FLUSH");
        assertThat(failure("broker", "--namesrv-addr", "127.0.0.1:1", "--broker-role", "LEADER")).contains("LEADER");
    }

    @Test
    void shouldRefuseABadOptionInOneLineWithoutTheUsageHelp() {
        assertThat(failure(server("--broker-port", "many"))).isEqualTo("Invalid value for option '--broker-port': "
                + "'many' is not an int (ferry-server --help lists the options)");
        assertThat(failure("broker", "--broker-prt")).isEqualTo("Unknown option: '--broker-prt' "
                + "(ferry-server broker --help lists the options)");
        assertThat(failure("namesrv", "--port")).startsWith("Missing required parameter for option '--port'")
                .endsWith("(ferry-server namesrv --help lists the options)");
    }

    @Test
    void shouldNeverShowASecretOfABadValueEvenWithVerbose() throws Exception {
        Path file = Files.writeString(dir.resolve("ferry.properties"),
                "initAuthenticationUser={\"username\":\"admin\",\"password\":\"s3cret-Pw\"\n");
        assertThat(failure(server("--config", file.toString()))).startsWith(file + ": initAuthenticationUser: ");
        Run verbose = run(server("--config", file.toString(), "--verbose"));
        assertThat(verbose.exit()).isEqualTo(2);
        assertThat(verbose.err()).doesNotContain("s3cret-Pw");
    }

    @Test
    void shouldNameAConfigFileThatCannotBeRead() {
        Path missing = dir.resolve("missing.properties");
        assertThat(failure(server("--config", missing.toString())))
                .isEqualTo("--config: cannot read " + missing + " (no such file)");
        assertThat(failure("namesrv", "--port", "0", "--config", dir.toString()))
                .startsWith("--config: cannot read " + dir + " (");
    }

    @Test
    void shouldNameThePortKeyWhenThePortIsInUseForEachCommand() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            String port = String.valueOf(taken.getLocalPort());
            String inUse = ": cannot listen on 127.0.0.1:" + port + " (address already in use)";
            String store = dir.resolve("store").toString();
            assertThat(failure("--store-dir", store, "--namesrv-port", port, "--broker-port", "0"))
                    .isEqualTo("namesrvPort" + inUse);
            assertThat(failure("--store-dir", store, "--namesrv-port", "0", "--broker-port", port))
                    .isEqualTo("brokerPort" + inUse);
            assertThat(failure("namesrv", "--store-dir", dir.resolve("ns").toString(), "--port", port))
                    .isEqualTo("listenPort" + inUse);
            assertThat(failure("broker", "--store-dir", dir.resolve("b").toString(), "--namesrv-addr", "127.0.0.1:1",
                    "--broker-port", port)).isEqualTo("listenPort" + inUse);
            assertThat(failure("broker", "--store-dir", dir.resolve("b").toString(), "--namesrv-addr", "127.0.0.1:1",
                    "--broker-port", "0", "--ha-port", port)).isEqualTo("haListenPort" + inUse);
            Path metrics = Files.writeString(dir.resolve("metrics.properties"),
                    "metricsExporterType=PROM\nmetricsPromExporterHost=127.0.0.1\nmetricsPromExporterPort=" + port);
            assertThat(failure(server("--config", metrics.toString())))
                    .isEqualTo("metricsPromExporterPort" + inUse);
        }
    }

    @Test
    void shouldNameTheHostKeyWhenTheHostIsNotThisMachines() {
        // 192.0.2.0/24 is reserved for documentation: no machine has it
        assertThat(failure(server("--host", "192.0.2.1")))
                .isEqualTo("host: cannot listen on 192.0.2.1:0 (cannot assign requested address)");
    }

    @Test
    void shouldReleaseTheStoreAndPortsOfAStartThatFailed() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            failure("--store-dir", dir.resolve("store").toString(), "--namesrv-port", "0", "--broker-port",
                    String.valueOf(taken.getLocalPort()));
        }
        // the same store serves a broker at once: the failed start let go of its lock
        try (FerryServer server = new FerryServer(parsed(server()), Clock.system(),
                new DefaultThreadFactory("after-failure", true)).start()) {
            assertThat(server.brokerPort()).isPositive();
        }
    }

    private static dev.ferry.server.FerryServerConfig parsed(String... args) {
        FerryServerCommand command = new FerryServerCommand();
        new CommandLine(command).parseArgs(args);
        return command.config();
    }

    @Test
    void shouldRefuseASecondServerOnAStoreAnotherRunningServerHolds() throws Exception {
        try (FerryServer first = new FerryServer(parsed(server()), Clock.system(),
                new DefaultThreadFactory("first", true)).start()) {
            String held = dir.resolve("store").toAbsolutePath() + " is in use by another running broker";
            assertThat(failure(server())).startsWith("storeDir: " + held);
            assertThat(failure("broker", "--store-dir", dir.resolve("store").toString(), "--broker-port", "0",
                    "--namesrv-addr", "127.0.0.1:" + first.namesrvPort())).startsWith("storeDir: " + held);
            assertThat(first.broker().port()).isPositive();
        }
    }

    @Test
    void shouldNameAPluginDirectoryThatCannotBeRead() throws Exception {
        Path missing = dir.resolve("plugins");
        assertThat(failure(server("--plugin-dir", missing.toString())))
                .isEqualTo("pluginDir: cannot read " + missing + " (no such directory)");
        Path file = Files.writeString(dir.resolve("plugin.jar"), "");
        assertThat(failure("broker", "--store-dir", dir.resolve("b").toString(), "--namesrv-addr", "127.0.0.1:1",
                "--broker-port", "0", "--plugin-dir", file.toString()))
                .isEqualTo("pluginDir: cannot read " + file + " (not a directory)");
    }

    @Test
    void shouldNameTheTlsKeyOfAFileThatCannotBeRead() throws Exception {
        TestCertificates server = TestCertificates.create(dir, "server");
        Path missing = dir.resolve("x").resolve("server.crt.pem");
        assertThat(failure(tls(missing, server.privateKey())))
                .isEqualTo("tlsCertPath: cannot read " + missing + " (no such file)");
        assertThat(failure(tls(server.certificate(), missing)))
                .isEqualTo("tlsKeyPath: cannot read " + missing + " (no such file)");
        assertThat(failure(tls(server.certificate(), server.privateKey(), "--tls-need-client-auth",
                "--tls-trust-cert-path", missing.toString())))
                .isEqualTo("tlsTrustCertPath: cannot read " + missing + " (no such file)");
        assertThat(failure("namesrv", "--port", "0", "--tls-mode", "permissive", "--tls-cert-path", dir.toString(),
                "--tls-key-path", server.privateKey().toString())).startsWith("tlsCertPath: cannot read " + dir);
    }

    @Test
    void shouldPrintTheStackTraceAfterTheLineWithVerbose() throws Exception {
        TestCertificates server = TestCertificates.create(dir, "server");
        Path missing = dir.resolve("server.missing.pem");
        Run run = run(tls(missing, server.privateKey(), "--verbose"));
        assertThat(run.exit()).isEqualTo(2);
        List<String> lines = run.err().lines().toList();
        assertThat(lines.get(0)).isEqualTo("tlsCertPath: cannot read " + missing + " (no such file)");
        assertThat(lines.subList(1, lines.size())).anyMatch(line -> line.startsWith("\tat "));

        Run beforeTheSubcommand = run("--verbose", "namesrv", "--port", "0", "--tls-mode", "enforcing",
                "--tls-cert-path", missing.toString(), "--tls-key-path", server.privateKey().toString());
        assertThat(beforeTheSubcommand.exit()).isEqualTo(2);
        assertThat(beforeTheSubcommand.err().lines().toList()).first()
                .isEqualTo("tlsCertPath: cannot read " + missing + " (no such file)");
        assertThat(beforeTheSubcommand.err()).contains("\tat ");
    }

    @Test
    void shouldRefuseACertificateThatIsNotPem() throws Exception {
        TestCertificates server = TestCertificates.create(dir, "server");
        Path notPem = Files.writeString(dir.resolve("cert.txt"), "hello\n");
        assertThat(failure(tls(notPem, server.privateKey()))).isEqualTo("tlsCertPath: " + notPem
                + " is not a PEM certificate (no -----BEGIN CERTIFICATE----- line)");
        Path broken = Files.writeString(dir.resolve("broken.pem"),
                "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n");
        assertThat(failure(tls(broken, server.privateKey())))
                .startsWith("tlsCertPath: " + broken + " is not a PEM certificate");
        assertThat(failure(tls(server.certificate(), server.privateKey(), "--tls-need-client-auth",
                "--tls-trust-cert-path", notPem.toString())))
                .startsWith("tlsTrustCertPath: " + notPem + " is not a PEM certificate");
    }

    @Test
    void shouldRefuseAKeyThatIsNotUnencryptedPkcs8WithoutShowingIt() throws Exception {
        TestCertificates server = TestCertificates.create(dir, "server");
        String body = Files.readString(server.privateKey()).replaceAll("-----[A-Z ]+-----", "").strip();
        Path pkcs1 = Files.writeString(dir.resolve("rsa.pem"),
                "-----BEGIN RSA PRIVATE KEY-----\n" + body + "\n-----END RSA PRIVATE KEY-----\n");
        String line = failure(tls(server.certificate(), pkcs1));
        assertThat(line).startsWith("tlsKeyPath: " + pkcs1 + " is not an unencrypted PKCS#8 PEM key")
                .contains("PKCS#1", "openssl pkcs8 -topk8 -nocrypt");
        assertThat(line).doesNotContain(body.substring(0, 40));
        Path encrypted = Files.writeString(dir.resolve("encrypted.pem"),
                "-----BEGIN ENCRYPTED PRIVATE KEY-----\n" + body + "\n-----END ENCRYPTED PRIVATE KEY-----\n");
        assertThat(failure(tls(server.certificate(), encrypted))).contains("it is encrypted");
        assertThat(failure(tls(server.certificate(), server.certificate()))).contains("it is a certificate");
    }

    @Test
    void shouldRefuseAKeyOfTheWrongTypeOrOfAnotherCertificate() throws Exception {
        TestCertificates server = TestCertificates.create(dir, "server");
        TestCertificates other = TestCertificates.create(dir, "other");
        byte[] ec = KeyPairGenerator.getInstance("EC").generateKeyPair().getPrivate().getEncoded();
        Path ecKey = Files.writeString(dir.resolve("ec.key.pem"), "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(ec)
                + "\n-----END PRIVATE KEY-----\n");
        assertThat(failure(tls(server.certificate(), ecKey))).isEqualTo("tlsKeyPath: " + ecKey
                + " is not an RSA PKCS#8 key, which the certificate in tlsCertPath needs");
        assertThat(failure(tls(server.certificate(), other.privateKey()))).isEqualTo("tlsKeyPath: "
                + other.privateKey() + " is not the key of the certificate in tlsCertPath " + server.certificate());
    }
}
