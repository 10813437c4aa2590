package dev.ferry.server.cli;

import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.body.SubscriptionGroupConfig;
import dev.ferry.remoting.protocol.header.DeleteSubscriptionGroupRequestHeader;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ferry-server admin group create|delete}: a consumer group's settings on every master broker. */
@Command(name = "group", mixinStandardHelpOptions = true, description = "Creates or deletes a consumer group.")
final class GroupCommands {
    @CommandLine.ParentCommand
    AdminCommand admin;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Command(name = "create", description = "Creates (or changes) a consumer group on every master broker.")
    int create(@Parameters(paramLabel = "GROUP") String group,
               @Option(names = "--retry-max-times", defaultValue = "16",
                       description = "Deliveries before a message goes to the group's DLQ.") int retryMaxTimes,
               @Option(names = "--retry-queues", defaultValue = "1", description = "Queues of its retry topic.")
               int retryQueues,
               @Option(names = "--no-broadcast", description = "Refuse broadcasting consumers.") boolean noBroadcast,
               @Option(names = "--disabled", description = "Refuse every pull of the group.") boolean disabled,
               @Option(names = "--cluster", description = "Only this cluster's brokers.") String cluster) {
        SubscriptionGroupConfig config = new SubscriptionGroupConfig(group, !disabled, true, !noBroadcast, false,
                retryQueues, retryMaxTimes, null, 0, 1, true, 0, 15, null, Map.of());
        return admin.run(spec.subcommands().get("create").getCommandSpec(), (calls, out) -> {
            for (String broker : calls.brokers(cluster)) {
                calls.call(broker, RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP)
                        .body(calls.json().encode(config)).build());
                out.printf("set group %s on %s: retry max times %d, retry queues %d, broadcast %s, consume %s%n",
                        group, broker, retryMaxTimes, retryQueues, !noBroadcast, !disabled);
            }
        });
    }

    @Command(name = "delete", description = "Deletes a consumer group from every master broker.")
    int delete(@Parameters(paramLabel = "GROUP") String group,
               @Option(names = "--remove-offsets", description = "Also drop its committed offsets.")
               boolean removeOffsets,
               @Option(names = "--cluster", description = "Only this cluster's brokers.") String cluster) {
        return admin.run(spec.subcommands().get("delete").getCommandSpec(), (calls, out) -> {
            for (String broker : calls.brokers(cluster)) {
                calls.call(broker, RemotingCommand.request(RequestCode.DELETE_SUBSCRIPTIONGROUP,
                        new DeleteSubscriptionGroupRequestHeader(group, removeOffsets)).build());
                out.printf("deleted group %s from %s%s%n", group, broker, removeOffsets ? " with its offsets" : "");
            }
        });
    }
}
