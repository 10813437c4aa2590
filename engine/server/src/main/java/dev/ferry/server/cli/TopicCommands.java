package dev.ferry.server.cli;

import dev.ferry.format.SystemTopics;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.header.CreateTopicRequestHeader;
import dev.ferry.remoting.protocol.header.DeleteTopicFromNamesrvRequestHeader;
import dev.ferry.remoting.protocol.header.DeleteTopicRequestHeader;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ferry-server admin topic create|delete}: on every master broker of a cluster, as mqadmin does. */
@Command(name = "topic", mixinStandardHelpOptions = true, description = "Creates or deletes a topic.")
final class TopicCommands {
    @CommandLine.ParentCommand
    AdminCommand admin;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Command(name = "create", description = "Creates (or changes) a topic on every master broker of the cluster.")
    int create(@Parameters(paramLabel = "TOPIC") String topic,
               @Option(names = "--queues", defaultValue = "8", description = "Read and write queues per broker.")
               int queues,
               @Option(names = "--perm", defaultValue = "6", description = "Permission: 6 read-write, 4 read, 2 write.")
               int perm,
               @Option(names = "--order", description = "Mark the topic ordered.") boolean order,
               @Option(names = "--cluster", description = "Only this cluster's brokers.") String cluster) {
        return admin.run(spec.subcommands().get("create").getCommandSpec(), (calls, out) -> {
            List<String> brokers = calls.brokers(cluster);
            for (String broker : brokers) {
                calls.call(broker, RemotingCommand.request(RequestCode.UPDATE_AND_CREATE_TOPIC,
                        new CreateTopicRequestHeader(topic, SystemTopics.AUTO_CREATE_TOPIC, queues, queues, perm,
                                "SINGLE_TAG", 0, order, "", false)).build());
                out.printf("created topic %s on %s: %d queues, permission %d%s%n", topic, broker, queues, perm,
                        order ? ", ordered" : "");
            }
        });
    }

    @Command(name = "delete", description = "Deletes a topic from every master broker of the cluster and from the "
            + "name server.")
    int delete(@Parameters(paramLabel = "TOPIC") String topic,
               @Option(names = "--cluster", description = "Only this cluster's brokers.") String cluster) {
        return admin.run(spec.subcommands().get("delete").getCommandSpec(), (calls, out) -> {
            for (String broker : calls.brokers(cluster)) {
                calls.call(broker, RemotingCommand.request(RequestCode.DELETE_TOPIC_IN_BROKER,
                        new DeleteTopicRequestHeader(topic)).build());
                out.printf("deleted topic %s from %s%n", topic, broker);
            }
            calls.call(calls.nameServer(), RemotingCommand.request(RequestCode.DELETE_TOPIC_IN_NAMESRV,
                    new DeleteTopicFromNamesrvRequestHeader(topic, cluster)).build());
            out.printf("deleted topic %s from name server %s%n", topic, calls.nameServer());
        });
    }
}
