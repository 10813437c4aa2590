package dev.ferry.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.Clock;
import dev.ferry.remoting.TlsConfig;
import dev.ferry.remoting.ha.HaLimits;
import dev.ferry.server.FerryServer;
import dev.ferry.server.FerryServerConfig;
import dev.ferry.server.broker.BrokerRole;
import dev.ferry.format.DelayLevels;
import dev.ferry.store.FlushMode;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

@Tag("integration")
class FerryServerCommandTest {
    @TempDir
    Path dir;

    private static FerryServerCommand parse(String... args) {
        FerryServerCommand command = new FerryServerCommand();
        new CommandLine(command).parseArgs(args); // also injects the command's spec
        return command;
    }

    @Test
    void shouldPrintTheHelpOfEveryCommandWithoutPicocliWarnings() {
        PrintStream stderr = System.err;
        ByteArrayOutputStream warnings = new ByteArrayOutputStream();
        StringWriter help = new StringWriter();
        System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
        try {
            CommandLine line = FerryServerCommand.commandLine().setOut(new PrintWriter(help));
            for (String[] args : List.of(new String[] {"--help"}, new String[] {"namesrv", "--help"},
                    new String[] {"broker", "--help"}, new String[] {"admin", "--help"})) {
                assertThat(line.execute(args)).isZero();
            }
        } finally {
            System.setErr(stderr);
        }
        // a description with a bare % is not a format string picocli can render: it warns and prints it raw
        assertThat(warnings.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(help.toString()).contains("diskMaxUsedSpaceRatio (%)").contains("--store-dir");
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
    void shouldTakeTheBrokersEventLoopsFromTheConfigFileWithinTheirBounds() throws Exception {
        Path file = dir.resolve("loops.properties");
        Files.writeString(file, "ioThreads=3\n");
        assertThat(parse("--config", file.toString()).config().broker().ioThreads()).isEqualTo(3);

        for (String bad : new String[] {"0", "65", "many"}) {
            Files.writeString(file, "ioThreads=" + bad + "\n");
            StringWriter err = new StringWriter();
            int exit = new CommandLine(new FerryServerCommand()).setErr(new PrintWriter(err))
                    .execute("--config", file.toString());
            assertThat(exit).as("ioThreads=" + bad).isNotZero();
            assertThat(err.toString()).contains("ioThreads").contains(bad);
        }
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

    private static FerryServerConfig brokerConfig(String... args) throws Exception {
        CommandLine line = new CommandLine(new FerryServerCommand());
        String[] all = new String[args.length + 1];
        all[0] = "broker";
        System.arraycopy(args, 0, all, 1, args.length);
        return ((BrokerCommand) line.parseArgs(all).subcommand().commandSpec().userObject()).config();
    }

    private static FerryServerConfig nameServerConfig(String... args) throws Exception {
        CommandLine line = new CommandLine(new FerryServerCommand());
        String[] all = new String[args.length + 1];
        all[0] = "namesrv";
        System.arraycopy(args, 0, all, 1, args.length);
        return ((NameServerCommand) line.parseArgs(all).subcommand().commandSpec().userObject()).config();
    }

    private static String failure(String... args) {
        StringWriter err = new StringWriter();
        int exit = new CommandLine(new FerryServerCommand()).setErr(new PrintWriter(err)).execute(args);
        assertThat(exit).as("exit code of %s", List.of(args)).isNotZero();
        return err.toString();
    }

    @Test
    void shouldRunABrokerAloneRegisteringWithEveryNameServerGivenOnTheCommandLine() throws Exception {
        FerryServerConfig config = brokerConfig("--namesrv-addr", "127.0.0.1:9876;127.0.0.1:9877", "--broker-name",
                "broker-b", "--broker-id", "0", "--cluster-name", "orders", "--broker-port", "10921", "--store-dir",
                dir.resolve("b").toString(), "--broker-role", "async_master");
        assertThat(config.role()).isEqualTo(FerryServerConfig.Role.BROKER);
        assertThat(config.broker().nameServers()).containsExactly("127.0.0.1:9876", "127.0.0.1:9877");
        assertThat(config.broker().brokerName()).isEqualTo("broker-b");
        assertThat(config.broker().brokerId()).isZero();
        assertThat(config.broker().brokerRole()).isEqualTo(BrokerRole.ASYNC_MASTER);
        assertThat(config.broker().clusterName()).isEqualTo("orders");
        assertThat(config.broker().port()).isEqualTo(10921);
        assertThat(config.broker().haPort(10921)).as("no HA port unless asked for").isEqualTo(-1);
        assertThat(brokerConfig("--namesrv-addr", "a:1", "--broker-role", "SYNC_MASTER", "--broker-port", "10921")
                .broker().haPort(10921)).as("a SYNC_MASTER's: Apache's haListenPort default").isEqualTo(10922);
        assertThat(config.storeDir()).isEqualTo(dir.resolve("b"));
        // Apache's periods: a registration every 30 s
        assertThat(config.broker().registerInterval()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void shouldReadABrokersApacheStyleConfigFileWithItsKeyNames() throws Exception {
        Path file = dir.resolve("broker-c.properties");
        Files.writeString(file, "namesrvAddr=10.0.0.1:9876;10.0.0.2:9876\nbrokerName=broker-c\nbrokerId=0\n"
                + "brokerClusterName=payments\nlistenPort=10931\nbrokerRole=ASYNC_MASTER\nhaListenPort=10939\n"
                + "registerNameServerPeriod=10000\nslaveSyncInterval=2s\n");
        FerryServerConfig config = brokerConfig("--config", file.toString());
        assertThat(config.broker().nameServers()).containsExactly("10.0.0.1:9876", "10.0.0.2:9876");
        assertThat(config.broker().brokerName()).isEqualTo("broker-c");
        assertThat(config.broker().clusterName()).isEqualTo("payments");
        assertThat(config.broker().port()).isEqualTo(10931);
        assertThat(config.broker().haPort(10931)).isEqualTo(10939);
        assertThat(config.broker().registerInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(config.broker().slaveSyncInterval()).isEqualTo(Duration.ofSeconds(2));
        // the flag wins over the file
        assertThat(brokerConfig("--config", file.toString(), "--namesrv-addr", "127.0.0.1:1").broker().nameServers())
                .containsExactly("127.0.0.1:1");
    }

    @Test
    void shouldReadTheHaPortsHandshakeLimitsAndRefuseBadOnesByName() throws Exception {
        Path file = dir.resolve("ha.properties");
        Files.writeString(file, "brokerRole=SYNC_MASTER\nhaHandshakeTimeout=2s\nhaMaxPendingHandshakes=16\n");
        FerryServerConfig config = brokerConfig("--namesrv-addr", "a:1", "--config", file.toString());
        assertThat(config.broker().haLimits()).isEqualTo(new HaLimits(Duration.ofSeconds(2), 16));
        assertThat(brokerConfig("--namesrv-addr", "a:1").broker().haLimits()).as("defaults")
                .isEqualTo(new HaLimits(Duration.ofSeconds(5), 64));
        for (String[] bad : new String[][] {
                {"haHandshakeTimeout=0s", "haHandshakeTimeout = PT0S: must be within 100ms..60s"},
                {"haHandshakeTimeout=61s", "haHandshakeTimeout = PT1M1S: must be within 100ms..60s"},
                {"haHandshakeTimeout=soon", "haHandshakeTimeout = soon"},
                {"haMaxPendingHandshakes=0", "haMaxPendingHandshakes = 0: must be within 1..1024"},
                {"haMaxPendingHandshakes=1025", "haMaxPendingHandshakes = 1025: must be within 1..1024"},
                {"haMaxPendingHandshakes=many", "haMaxPendingHandshakes = many: not an integer"}}) {
            Files.writeString(file, bad[0] + "\n");
            assertThat(failure("broker", "--namesrv-addr", "a:1", "--config", file.toString())).contains(bad[1]);
        }
    }

    @Test
    void shouldReadTheAnswerAndQueueLockLimitsAndRefuseBadOnesByName() throws Exception {
        Path file = dir.resolve("outbound.properties");
        Files.writeString(file, "writeBufferLowWaterMark=65536\nwriteBufferHighWaterMark=131072\n"
                + "maxOutboundBytes=33554432\nwriteStallTimeout=5s\nmaxQueueLocks=500\n");
        FerryServerConfig config = brokerConfig("--namesrv-addr", "a:1", "--config", file.toString());
        assertThat(config.broker().remotingLimits().writeBufferLowWaterMark()).isEqualTo(65536);
        assertThat(config.broker().remotingLimits().writeBufferHighWaterMark()).isEqualTo(131072);
        assertThat(config.broker().remotingLimits().maxOutboundBytes()).isEqualTo(32L << 20);
        assertThat(config.broker().remotingLimits().writeStallTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(config.broker().limits().maxQueueLocks()).isEqualTo(500);
        assertThat(brokerConfig("--namesrv-addr", "a:1").broker().limits().maxQueueLocks()).as("default")
                .isEqualTo(100_000);
        for (String[] bad : new String[][] {
                {"writeBufferLowWaterMark=0", "writeBufferLowWaterMark = 0: must be positive"},
                {"writeBufferHighWaterMark=1000", "writeBufferHighWaterMark = 1000: must be at least "
                        + "writeBufferLowWaterMark (32768)"},
                {"maxOutboundBytes=1000", "maxOutboundBytes = 1000: must be at least 1048576 bytes"},
                {"writeStallTimeout=0s", "writeStallTimeout = PT0S: must be a positive duration"},
                {"maxQueueLocks=0", "maxQueueLocks = 0: must be positive"},
                {"maxQueueLocks=many", "maxQueueLocks = many: not an integer"}}) {
            Files.writeString(file, bad[0] + "\n");
            assertThat(failure("broker", "--namesrv-addr", "a:1", "--config", file.toString())).contains(bad[1]);
        }
    }

    @Test
    void shouldRunANameServerAloneOnItsListenPort() throws Exception {
        assertThat(nameServerConfig("--port", "9999").nameServer().port()).isEqualTo(9999);
        Path file = dir.resolve("namesrv.properties");
        Files.writeString(file, "listenPort=9988\n");
        FerryServerConfig config = nameServerConfig("--config", file.toString());
        assertThat(config.role()).isEqualTo(FerryServerConfig.Role.NAME_SERVER);
        assertThat(config.nameServer().port()).isEqualTo(9988);
    }

    @Test
    void shouldRefuseABrokerWithoutNameServersOrWithABadAddressOrRole() throws Exception {
        assertThat(failure("broker", "--store-dir", dir.toString())).contains("namesrvAddr is missing");
        assertThat(failure("broker", "--namesrv-addr", "localhost")).contains("namesrvAddr = localhost",
                "'localhost' is not host:port");
        assertThat(failure("broker", "--namesrv-addr", "a:1;b:99999")).contains("'b:99999' is not host:port");
        assertThat(failure("broker", "--namesrv-addr", "a:1", "--broker-role", "LEADER"))
                .contains("brokerRole = LEADER: expected one of ASYNC_MASTER, SYNC_MASTER, SLAVE");
        assertThat(failure("broker", "--namesrv-addr", "a:1", "--broker-id", "2"))
                .contains("brokerId = 2: a master's must be 0");
        assertThat(failure("broker", "--namesrv-addr", "a:1", "--broker-role", "SLAVE"))
                .contains("brokerId = 0: a slave's must be 1 or more");
        FerryServerConfig slave = brokerConfig("--namesrv-addr", "a:1", "--broker-role", "SLAVE", "--broker-id", "1");
        assertThat(slave.broker().brokerRole()).isEqualTo(BrokerRole.SLAVE);
        assertThat(slave.broker().haPort(10911)).as("a slave serves no replication").isEqualTo(-1);
        Path file = dir.resolve("both.properties");
        Files.writeString(file, "listenPort=1\n");
        assertThat(failure("--config", file.toString())).contains("set namesrvPort and brokerPort");
    }

    @Test
    void shouldRegisterTheCombinedBrokerWithItsOwnNameServerFirstAndAnyOthersGiven() throws Exception {
        Path file = dir.resolve("both.properties");
        // a port nothing listens on: the extra registration fails at once, and the broker runs on
        Files.writeString(file, "namesrvPort=0\nbrokerPort=0\nnamesrvAddr=127.0.0.1:1\n");
        FerryServerConfig config = parse("--config", file.toString(), "--store-dir", dir.resolve("s").toString())
                .config();
        assertThat(config.role()).isEqualTo(FerryServerConfig.Role.NAME_SERVER_AND_BROKER);
        try (FerryServer server = new FerryServer(config, Clock.system(), new DefaultThreadFactory("command-test", true))
                .start()) {
            assertThat(server.config().broker().nameServers())
                    .containsExactly(server.nameServerAddress(), "127.0.0.1:1");
        }
    }
}
