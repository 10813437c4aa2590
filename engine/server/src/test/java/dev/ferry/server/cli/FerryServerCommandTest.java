package dev.ferry.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.remoting.TlsConfig;
import dev.ferry.server.FerryServerConfig;
import dev.ferry.server.broker.DelayLevels;
import dev.ferry.store.FlushMode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class FerryServerCommandTest {
    @TempDir
    Path dir;

    private static FerryServerCommand parse(String... args) {
        FerryServerCommand command = new FerryServerCommand();
        new CommandLine(command).parseArgs(args); // also injects the command's spec
        return command;
    }

    @Test
    void shouldUseRocketMqDefaults() throws Exception {
        FerryServerConfig config = parse().config();
        assertThat(config.broker().host()).isEqualTo("127.0.0.1");
        assertThat(config.nameServer().port()).isEqualTo(9876);
        assertThat(config.broker().port()).isEqualTo(10911);
        assertThat(config.store().flushMode()).isEqualTo(FlushMode.ASYNC_FLUSH);
    }

    @Test
    void shouldTakeTlsFromFlagsOverTheConfigFileForBothPorts() throws Exception {
        Path cert = Files.writeString(dir.resolve("server.crt.pem"), "pem");
        Path key = Files.writeString(dir.resolve("server.key.pem"), "pem");
        Path trust = Files.writeString(dir.resolve("clients.pem"), "pem");
        Path file = dir.resolve("ferry.properties");
        Files.writeString(file, "tlsMode=permissive\ntlsCertPath=" + cert + "\ntlsKeyPath=" + key + "\n");
        FerryServerConfig config = parse("--config", file.toString(), "--tls-mode", "enforcing",
                "--tls-trust-cert-path", trust.toString(), "--tls-need-client-auth").config();
        TlsConfig tls = config.broker().tls();
        assertThat(tls.mode()).isEqualTo(TlsConfig.Mode.ENFORCING);
        assertThat(tls.certificateChain()).isEqualTo(cert);
        assertThat(tls.privateKey()).isEqualTo(key);
        assertThat(tls.needClientAuth()).isTrue();
        assertThat(tls.trustCertificates()).isEqualTo(trust);
        assertThat(config.nameServer().tls()).isEqualTo(tls);
        // the broker's own connection to the name server: TLS, trusting the clients' authority, presenting its own
        assertThat(config.broker().nameServerTls().enabled()).isTrue();
        assertThat(config.broker().nameServerTls().certificateChain()).isEqualTo(cert);
        assertThat(parse().config().broker().tls().enabled()).isFalse();
    }

    @Test
    void shouldLetFlagsOverrideTheConfigFile() throws Exception {
        Path file = dir.resolve("ferry.properties");
        Files.writeString(file, "namesrvPort=1111\nbrokerPort=2222\nflushMode=SYNC_FLUSH\nbrokerName=broker-x\n");
        FerryServerConfig config = parse("--config", file.toString(), "--broker-port", "3333").config();
        assertThat(config.nameServer().port()).isEqualTo(1111);
        assertThat(config.broker().port()).isEqualTo(3333);
        assertThat(config.store().flushMode()).isEqualTo(FlushMode.SYNC_FLUSH);
        assertThat(config.broker().brokerName()).isEqualTo("broker-x");
    }

    @Test
    void shouldReadDelayLevelsAndTransactionChecksFromTheConfigFile() throws Exception {
        assertThat(parse().config().broker().delayLevels()).isEqualTo(DelayLevels.DEFAULT);
        Path file = dir.resolve("ferry.properties");
        Files.writeString(file, "delayLevels=1s 2s 3s\ntransactionCheckInterval=1500ms\ntransactionCheckMax=3\n");
        FerryServerConfig config = parse("--config", file.toString()).config();
        assertThat(config.broker().delayLevels().delays()).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2),
                Duration.ofSeconds(3));
        assertThat(config.broker().transactionCheckInterval()).isEqualTo(Duration.ofMillis(1500));
        assertThat(config.broker().transactionCheckMax()).isEqualTo(3);

        Files.writeString(file, "delayLevels=1s 5q\n");
        StringWriter err = new StringWriter();
        int exit = new CommandLine(new FerryServerCommand()).setErr(new PrintWriter(err))
                .execute("--config", file.toString());
        assertThat(exit).isNotZero();
        assertThat(err.toString()).contains("delayLevels").contains("5q");
    }

    @Test
    void shouldRejectUnknownConfigKeysAndBadValuesByName() throws Exception {
        Path file = dir.resolve("bad.properties");
        Files.writeString(file, "brokerPrt=1\n");
        StringWriter err = new StringWriter();
        int exit = new CommandLine(new FerryServerCommand()).setErr(new PrintWriter(err))
                .execute("--config", file.toString());
        assertThat(exit).isNotZero();
        assertThat(err.toString()).contains("unknown key 'brokerPrt'");

        Files.writeString(file, "flushMode=SOMETIMES\n");
        err.getBuffer().setLength(0);
        exit = new CommandLine(new FerryServerCommand()).setErr(new PrintWriter(err)).execute("--config",
                file.toString());
        assertThat(exit).isNotZero();
        assertThat(err.toString()).contains("flushMode = SOMETIMES");
    }
}
