package dev.ferry.server.cli;

import dev.ferry.remoting.Credentials;
import dev.ferry.remoting.RemotingClient;
import dev.ferry.remoting.RemotingClientConfig;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.body.BrokerData;
import dev.ferry.remoting.protocol.body.BrokerStatsBody;
import dev.ferry.remoting.protocol.body.ClusterInfo;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ferry-server admin topics|groups|lag GROUP}: prints a running broker's counters, read
 * with Ferry's FERRY_GET_BROKER_STATS request from the broker given, or from every master broker
 * the name server knows.
 */
@Command(name = "admin", mixinStandardHelpOptions = true,
        description = "Administers a running cluster: Ferry's broker counters (topics, groups, health), and, over "
                + "RocketMQ's own protocol (Ferry or Apache clusters), lag, topics, groups, offsets and messages.",
        subcommands = {TopicCommands.class, GroupCommands.class, OffsetCommands.class, MessageCommands.class})
public final class AdminCommand {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    @Option(names = "--namesrv", scope = CommandLine.ScopeType.INHERIT,
            description = "Name server (host:port) whose brokers to ask.")
    String namesrv;

    @Option(names = "--broker", scope = CommandLine.ScopeType.INHERIT,
            description = "Broker (host:port) to ask; wins over --namesrv.")
    String broker;

    @Option(names = "--access-key", scope = CommandLine.ScopeType.INHERIT,
            description = "User to sign requests as, when the cluster authenticates.")
    String accessKey;

    @Option(names = "--secret-key", scope = CommandLine.ScopeType.INHERIT, arity = "0..1", interactive = true,
            defaultValue = "${env:FERRY_ADMIN_SECRET_KEY}",
            description = "Its password: typed when the option is given without a value, else from "
                    + "FERRY_ADMIN_SECRET_KEY.")
    char[] secretKey;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** What a command needs of the cluster. */
    @FunctionalInterface
    interface Action {
        void run(AdminCalls calls, PrintWriter out);
    }

    /**
     * Runs a command against the name server given; a refusal ends it with exit code 1 and the server's reason on
     * standard error.
     */
    int run(CommandLine.Model.CommandSpec command, Action action) {
        if (namesrv == null) {
            throw new CommandLine.ParameterException(command.commandLine(), "give --namesrv");
        }
        Credentials credentials = null;
        if (accessKey != null) {
            if (secretKey == null || secretKey.length == 0) {
                throw new CommandLine.ParameterException(command.commandLine(), "--access-key needs --secret-key "
                        + "or FERRY_ADMIN_SECRET_KEY");
            }
            credentials = new Credentials(accessKey, new String(secretKey));
        }
        PrintWriter out = command.commandLine().getOut();
        try (AdminCalls calls = new AdminCalls(namesrv, credentials)) {
            action.run(calls, out);
            out.flush();
            return 0;
        } catch (AdminCalls.Refused | dev.ferry.remoting.RemotingException e) {
            out.flush();
            command.commandLine().getErr().println(e.getMessage());
            command.commandLine().getErr().flush();
            return 1;
        }
    }

    private final BodyCodec json = new BodyCodec();

    @Command(name = "topics", description = "Messages in and out and stored, per topic.")
    int topics() {
        PrintWriter out = spec.commandLine().getOut();
        out.printf("%-10s %-48s %12s %12s %12s%n", "BROKER", "TOPIC", "IN", "OUT", "STORED");
        for (BrokerStatsBody stats : stats()) {
            for (BrokerStatsBody.TopicStats topic : stats.topics()) {
                out.printf("%-10s %-48s %12d %12d %12d%n", stats.brokerName(), topic.topic(), topic.messagesIn(),
                        topic.messagesOut(), topic.storedMessages());
            }
        }
        out.flush();
        return 0;
    }

    @Command(name = "groups", description = "Clients, total lag and DLQ size, per consumer group.")
    int groups() {
        PrintWriter out = spec.commandLine().getOut();
        out.printf("%-10s %-40s %8s %12s %12s%n", "BROKER", "GROUP", "CLIENTS", "LAG", "DLQ");
        for (BrokerStatsBody stats : stats()) {
            for (BrokerStatsBody.GroupStats group : stats.groups()) {
                out.printf("%-10s %-40s %8d %12d %12d%n", stats.brokerName(), group.group(), group.clients(),
                        group.totalLag(), group.deadLetters());
            }
        }
        out.flush();
        return 0;
    }

    @Command(name = "health", description = "What each broker refused, set aside or holds now, timers included.")
    int health() {
        PrintWriter out = spec.commandLine().getOut();
        for (BrokerStatsBody stats : stats()) {
            BrokerStatsBody.Health h = stats.health();
            if (h == null) {
                out.printf("%s: reports no health%n", stats.brokerName());
                continue;
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
        out.flush();
        return 0;
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
        PrintWriter out = spec.commandLine().getOut();
        out.printf("%-10s %-48s %5s %14s %14s %10s%n", "BROKER", "TOPIC", "QUEUE", "BROKER_OFFSET",
                "CONSUMER_OFFSET", "LAG");
        boolean found = false;
        for (BrokerStatsBody stats : stats()) {
            for (BrokerStatsBody.GroupStats stat : stats.groups()) {
                if (!stat.group().equals(group)) {
                    continue;
                }
                found = true;
                for (BrokerStatsBody.QueueLag queue : stat.lag()) {
                    out.printf("%-10s %-48s %5d %14d %14d %10d%n", stats.brokerName(), queue.topic(),
                            queue.queueId(), queue.brokerOffset(), queue.consumerOffset(), queue.lag());
                }
            }
        }
        out.flush();
        if (!found) {
            spec.commandLine().getErr().println("no broker knows the consumer group " + group);
            return 1;
        }
        return 0;
    }

    private List<BrokerStatsBody> stats() {
        if (broker == null && namesrv == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "give --broker or --namesrv");
        }
        try (RemotingClient client = new RemotingClient(RemotingClientConfig.builder().build(),
                new DefaultThreadFactory("ferry-admin", true))) {
            List<BrokerStatsBody> all = new ArrayList<>();
            for (String address : brokers(client)) {
                RemotingCommand response = client.invokeSync(address,
                        RemotingCommand.request(RequestCode.FERRY_GET_BROKER_STATS).build(), TIMEOUT);
                if (response.code() != ResponseCode.SUCCESS) {
                    throw new CommandLine.ExecutionException(spec.commandLine(), "broker " + address + " answered "
                            + ResponseCode.nameOf(response.code()) + ": " + response.remark());
                }
                all.add(json.decode(response.body(), BrokerStatsBody.class));
            }
            return all;
        }
    }

    private List<String> brokers(RemotingClient client) {
        if (broker != null) {
            return List.of(broker);
        }
        RemotingCommand response = client.invokeSync(namesrv,
                RemotingCommand.request(RequestCode.GET_BROKER_CLUSTER_INFO).build(), TIMEOUT);
        if (response.code() != ResponseCode.SUCCESS) {
            throw new CommandLine.ExecutionException(spec.commandLine(), "name server " + namesrv + " answered "
                    + ResponseCode.nameOf(response.code()) + ": " + response.remark());
        }
        ClusterInfo cluster = json.decode(response.body(), ClusterInfo.class);
        List<String> addresses = new ArrayList<>();
        for (BrokerData data : new TreeMap<>(cluster.brokerAddrTable()).values()) {
            if (data.masterAddress() != null) {
                addresses.add(data.masterAddress());
            }
        }
        return addresses;
    }
}
