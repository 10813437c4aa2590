package dev.ferry.server.cli;

import dev.ferry.remoting.Credentials;
import dev.ferry.remoting.RemotingException;
import dev.ferry.remoting.TlsConfig;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.BodyFormatException;
import dev.ferry.remoting.protocol.body.BrokerStatsBody;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ferry-server admin ...}: asks a running cluster. Every subcommand goes through {@link #run}, which resolves
 * where to send ({@link AdminTarget}) and what to sign with ({@link AdminCredentials}) once, so that every request of
 * every subcommand is signed alike. {@code topics|groups|lag GROUP|health} print Ferry's broker counters, read with
 * its FERRY_GET_BROKER_STATS request from the broker given, or from every master broker the name server knows.
 */
@Command(name = "admin", mixinStandardHelpOptions = true,
        description = "Administers a running cluster: Ferry's broker counters (topics, groups, health), and, over "
                + "RocketMQ's own protocol (Ferry or Apache clusters), lag, topics, groups, offsets, messages, users "
                + "and ACLs.",
        subcommands = {TopicCommands.class, GroupCommands.class, OffsetCommands.class, MessageCommands.class,
            UserCommands.class, AclCommands.class})
public final class AdminCommand {
    /** Exit code of a command a server refused, or that found nothing. */
    static final int REFUSED = 1;
    /** Exit code of a command that could not start: unusable credentials or options. */
    static final int BAD_SETUP = 2;

    @Option(names = "--namesrv", scope = CommandLine.ScopeType.INHERIT,
            description = "Name server (host:port) whose brokers to ask; default: the " + AdminTarget.NAMESRV_ADDR
                    + " environment variable, else " + AdminTarget.DEFAULT_NAME_SERVER + ".")
    String namesrv;

    @Option(names = "--broker", scope = CommandLine.ScopeType.INHERIT,
            description = "Broker (host:port) to ask instead of the brokers the name server knows.")
    String broker;

    @Option(names = "--access-key", scope = CommandLine.ScopeType.INHERIT,
            description = "User to sign requests as, when the cluster authenticates (default: "
                    + AdminCredentials.ACCESS_KEY_VARIABLE + "); its secret is read from "
                    + AdminCredentials.SECRET_KEY_VARIABLE + " or the --credentials file.")
    String accessKey;

    @Option(names = "--credentials", scope = CommandLine.ScopeType.INHERIT, paramLabel = "FILE",
            description = "File with 'accessKey: USER' and 'secretKey: PASSWORD' lines, as RocketMQ's "
                    + "conf/tools.yml; wins over the environment.")
    Path credentials;

    @Option(names = "--tls", scope = CommandLine.ScopeType.INHERIT,
            description = "Connect with TLS (to servers with tlsMode=enforcing), trusting the JDK's authorities "
                    + "unless --tls-trust-cert-path names others.")
    boolean tls;

    @Option(names = "--tls-trust-cert-path", scope = CommandLine.ScopeType.INHERIT, paramLabel = "FILE",
            description = "PEM certificates of the authorities to trust for the servers (implies --tls).")
    Path tlsTrustCertPath;

    @Option(names = "--tls-cert-path", scope = CommandLine.ScopeType.INHERIT, paramLabel = "FILE",
            description = "PEM certificate to present, where servers require one (tlsNeedClientAuth; implies --tls).")
    Path tlsCertPath;

    @Option(names = "--tls-key-path", scope = CommandLine.ScopeType.INHERIT, paramLabel = "FILE",
            description = "Its unencrypted PKCS#8 PEM key.")
    Path tlsKeyPath;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private final UnaryOperator<String> environment;
    private final String defaultNameServer;

    /** Reads the process's environment; the name server defaults to {@value AdminTarget#DEFAULT_NAME_SERVER}. */
    public AdminCommand() {
        this(System::getenv, AdminTarget.DEFAULT_NAME_SERVER);
    }

    AdminCommand(UnaryOperator<String> environment, String defaultNameServer) {
        this.environment = environment;
        this.defaultNameServer = defaultNameServer;
    }

    /** An environment variable of the process, or {@code null} when unset. */
    String environment(String name) {
        return environment.apply(name);
    }

    /** What a command needs of the cluster. */
    @FunctionalInterface
    interface Action {
        void run(AdminCalls calls, PrintWriter out);
    }

    /**
     * Runs a command against the cluster: a refusal ends it with exit code {@value #REFUSED}, unusable credentials
     * with {@value #BAD_SETUP}, each with one line on standard error. An action prints only once it has its
     * answers, so that a failure leaves no half table behind.
     */
    int run(CommandLine.Model.CommandSpec command, Action action) {
        PrintWriter out = command.commandLine().getOut();
        PrintWriter err = command.commandLine().getErr();
        try {
            AdminTarget target = AdminTarget.resolve(namesrv, broker, environment, defaultNameServer);
            Credentials signer = AdminCredentials.resolve(accessKey, credentials, environment);
            try (AdminCalls calls = new AdminCalls(target, signer, tlsConfig())) {
                action.run(calls, out);
            }
            out.flush();
            return 0;
        } catch (AdminCalls.BadSetup e) {
            return fail(out, err, e.getMessage(), BAD_SETUP);
        } catch (AdminCalls.Refused e) {
            return fail(out, err, e.getMessage(), REFUSED);
        } catch (RemotingException e) {
            return fail(out, err, withoutExceptionNames(e), REFUSED);
        } catch (BodyFormatException e) {
            return fail(out, err, "an answer could not be read: " + AdminCalls.shown(e.getMessage()), REFUSED);
        }
    }

    /** TLS as the options ask: none unless one of them is given. */
    TlsConfig tlsConfig() {
        if ((tlsCertPath == null) != (tlsKeyPath == null)) {
            throw new AdminCalls.BadSetup("--tls-cert-path and --tls-key-path go together");
        }
        if (!tls && tlsTrustCertPath == null && tlsCertPath == null) {
            return TlsConfig.DISABLED;
        }
        TlsConfig client = TlsConfig.client(tlsTrustCertPath);
        return tlsCertPath == null ? client : client.presenting(tlsCertPath, tlsKeyPath);
    }

    /** "cannot connect to HOST:PORT: Connection refused: ...", without the Java type of its cause. */
    private static String withoutExceptionNames(RemotingException e) {
        String message = String.valueOf(e.getMessage());
        Throwable cause = e.getCause();
        if (cause != null && cause.getMessage() != null) {
            message = message.replace(cause.toString(), cause.getMessage());
        }
        return message;
    }

    private static int fail(PrintWriter out, PrintWriter err, String message, int exitCode) {
        out.flush();
        err.println(message);
        err.flush();
        return exitCode;
    }

    /** {@link #run} for the subcommand method {@code name} of this command. */
    private int run(String name, Action action) {
        return run(spec.subcommands().get(name).getCommandSpec(), action);
    }

    @Command(name = "topics", description = "Messages in and out and stored, per topic.")
    int topics() {
        return run("topics", (calls, out) -> {
            List<BrokerStatsBody> all = calls.stats();
            out.printf("%-10s %-48s %12s %12s %12s%n", "BROKER", "TOPIC", "IN", "OUT", "STORED");
            for (BrokerStatsBody stats : all) {
                for (BrokerStatsBody.TopicStats topic : stats.topics()) {
                    out.printf("%-10s %-48s %12d %12d %12d%n", stats.brokerName(), topic.topic(),
                            topic.messagesIn(), topic.messagesOut(), topic.storedMessages());
                }
            }
        });
    }

    @Command(name = "groups", description = "Clients, total lag and DLQ size, per consumer group.")
    int groups() {
        return run("groups", (calls, out) -> {
            List<BrokerStatsBody> all = calls.stats();
            out.printf("%-10s %-40s %8s %12s %12s%n", "BROKER", "GROUP", "CLIENTS", "LAG", "DLQ");
            for (BrokerStatsBody stats : all) {
                for (BrokerStatsBody.GroupStats group : stats.groups()) {
                    out.printf("%-10s %-40s %8d %12d %12d%n", stats.brokerName(), group.group(), group.clients(),
                            group.totalLag(), group.deadLetters());
                }
            }
        });
    }

    @Command(name = "health", description = "What each broker refused, set aside or holds now, timers included.")
    int health() {
        return run("health", (calls, out) -> calls.stats().forEach(stats -> health(out, stats)));
    }

    private static void health(PrintWriter out, BrokerStatsBody stats) {
        BrokerStatsBody.Health h = stats.health();
        if (h == null) {
            out.printf("%s: reports no health%n", stats.brokerName());
            return;
        }
        out.printf("broker %s%n", stats.brokerName());
        out.printf("  %-34s %d%n", "dispatch failures", h.dispatchFailures());
        out.printf("  %-34s %s%n", "queues set aside", h.setAsideQueues().isEmpty() ? "none"
                : String.join(" ", h.setAsideQueues()));
        out.printf("  %-34s %d%n", "bad requests refused", h.badRequests());
        out.printf("  %-34s %d%n", "connections closed, malformed frame", h.malformedFrames());
        out.printf("  %-34s %d%n", "processor failures", h.processorFailures());
        out.printf("  %-34s %d%n", "connections", h.connections());
        out.printf("  %-34s %d%n", "inbound bytes held", h.inboundBytes());
        out.printf("  %-34s %d%n", "pulls held", h.heldPulls());
        out.printf("  %-34s %d%n", "topics", h.topics());
        out.printf("  %-34s %d%n", "subscription groups", h.subscriptionGroups());
        out.printf("  %-34s %d%n", "consumer offsets", h.consumerOffsets());
        out.printf("  %-34s %d%n", "subscription characters", h.subscriptionChars());
        out.printf("  %-34s %d%n", "filter cache bytes", h.filterCacheBytes());
        timers(out, stats.timers());
    }

    /** The timers a broker holds: the backlog, how far firing is behind, and what became of them since start. */
    private static void timers(PrintWriter out, BrokerStatsBody.Timers t) {
        if (t == null) {
            return; // a broker that reports no timers
        }
        out.printf("  %-34s %d%n", "timers waiting", t.waiting());
        out.printf("  %-34s %d%n", "timer messages not yet indexed", t.notIndexed());
        out.printf("  %-34s %d%n", "timer firing behind (ms)", t.firingBehindMs());
        out.printf("  %-34s %d%n", "timers indexed", t.enqueued());
        out.printf("  %-34s %d%n", "timers fired", t.fired());
        out.printf("  %-34s %d%n", "timers cancelled", t.cancelled());
        out.printf("  %-34s %d%n", "timers lost", t.lost());
    }

    @Command(name = "lag", description = "The lag of one consumer group, per queue.")
    int lag(@Parameters(paramLabel = "GROUP", description = "The consumer group.") String group) {
        return run("lag", (calls, out) -> {
            List<BrokerStatsBody> all = calls.stats();
            if (all.stream().flatMap(stats -> stats.groups().stream()).noneMatch(g -> g.group().equals(group))) {
                throw new AdminCalls.Refused("no broker knows the consumer group " + group,
                        ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST);
            }
            out.printf("%-10s %-48s %5s %14s %14s %10s%n", "BROKER", "TOPIC", "QUEUE", "BROKER_OFFSET",
                    "CONSUMER_OFFSET", "LAG");
            for (BrokerStatsBody stats : all) {
                for (BrokerStatsBody.GroupStats stat : stats.groups()) {
                    if (!stat.group().equals(group)) {
                        continue;
                    }
                    for (BrokerStatsBody.QueueLag queue : stat.lag()) {
                        out.printf("%-10s %-48s %5d %14d %14d %10d%n", stats.brokerName(), queue.topic(),
                                queue.queueId(), queue.brokerOffset(), queue.consumerOffset(), queue.lag());
                    }
                }
            }
        });
    }
}
