package dev.ferry.server.cli;

import dev.ferry.format.Clock;
import dev.ferry.format.SystemTopics;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.body.ConsumeStats;
import dev.ferry.remoting.protocol.body.MessageQueueBody;
import dev.ferry.remoting.protocol.body.ResetOffsetBody;
import dev.ferry.remoting.protocol.header.GetConsumeStatsRequestHeader;
import dev.ferry.remoting.protocol.header.ResetOffsetRequestHeader;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ferry-server admin offset progress|reset}: a group's progress, and its offsets moved to a time. */
@Command(name = "offset", mixinStandardHelpOptions = true, description = "Shows or resets a group's offsets.")
final class OffsetCommands {
    private static final Comparator<MessageQueueBody> QUEUE_ORDER = Comparator.comparing(MessageQueueBody::topic)
            .thenComparing(MessageQueueBody::brokerName).thenComparingInt(MessageQueueBody::queueId);

    @CommandLine.ParentCommand
    AdminCommand admin;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Command(name = "progress", description = "Broker offset, committed offset and lag of each queue a group "
            + "consumes (mqadmin's consumerProgress).")
    int progress(@Parameters(paramLabel = "GROUP") String group,
                 @Option(names = "--topic", description = "Only this topic.") String topic) {
        return admin.run(spec.subcommands().get("progress").getCommandSpec(), (calls, out) -> {
            Map<MessageQueueBody, ConsumeStats.OffsetWrapper> all = new TreeMap<>(QUEUE_ORDER);
            for (String broker : calls.topicMasters(SystemTopics.retryTopic(group))) {
                ConsumeStats stats = calls.body(calls.call(broker, RemotingCommand.request(
                        RequestCode.GET_CONSUME_STATS, new GetConsumeStatsRequestHeader(group, topic, null))
                        .build()), ConsumeStats.class);
                all.putAll(stats.offsetTable());
            }
            out.printf("%-48s %-16s %5s %14s %14s %10s%n", "TOPIC", "BROKER", "QUEUE", "BROKER_OFFSET",
                    "CONSUMER_OFFSET", "LAG");
            long total = 0;
            for (Map.Entry<MessageQueueBody, ConsumeStats.OffsetWrapper> e : all.entrySet()) {
                long lag = Math.max(0, e.getValue().brokerOffset() - e.getValue().consumerOffset());
                total += lag;
                out.printf("%-48s %-16s %5d %14d %14d %10d%n", e.getKey().topic(), e.getKey().brokerName(),
                        e.getKey().queueId(), e.getValue().brokerOffset(), e.getValue().consumerOffset(), lag);
            }
            out.printf("total lag %d%n", total);
        });
    }

    @Command(name = "reset", description = "Moves a group's offsets on a topic to the first message stored at or "
            + "after a time (mqadmin's resetOffsetByTime); online consumers are told, offline groups reset in the "
            + "broker.")
    int reset(@Parameters(paramLabel = "GROUP") String group,
              @Parameters(paramLabel = "TOPIC") String topic,
              @Option(names = "--to", required = true,
                      description = "ISO-8601 instant (2026-12-01T10:00:00Z), epoch milliseconds, or 'now'.")
              String to,
              @Option(names = "--no-force", description = "Only move offsets back, never forward.")
              boolean noForce) {
        long timestamp = timestamp(to);
        return admin.run(spec.subcommands().get("reset").getCommandSpec(), (calls, out) -> {
            Map<MessageQueueBody, Long> all = new TreeMap<>(QUEUE_ORDER);
            for (String broker : calls.topicMasters(topic)) {
                RemotingCommand answer = calls.call(broker, RemotingCommand.request(
                        RequestCode.INVOKE_BROKER_TO_RESET_OFFSET,
                        new ResetOffsetRequestHeader(topic, group, -1, -1L, timestamp, !noForce)).build());
                if (answer.body() != null && answer.body().length > 0) {
                    all.putAll(calls.body(answer, ResetOffsetBody.class).offsetTable());
                }
            }
            out.printf("reset group %s on %s to %s%n", group, topic, Instant.ofEpochMilli(timestamp));
            out.printf("%-16s %5s %14s%n", "BROKER", "QUEUE", "OFFSET");
            all.forEach((queue, offset) -> out.printf("%-16s %5d %14d%n", queue.brokerName(), queue.queueId(),
                    offset));
        });
    }

    private long timestamp(String to) {
        if (to.equalsIgnoreCase("now")) {
            return Clock.system().millis(); // a command line is where the system's clock is chosen
        }
        if (to.chars().allMatch(Character::isDigit) && !to.isEmpty()) {
            return Long.parseLong(to);
        }
        try {
            return Instant.parse(to).toEpochMilli();
        } catch (DateTimeParseException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--to " + to
                    + ": expected an ISO-8601 instant such as 2026-12-01T10:00:00Z, epoch milliseconds, or now");
        }
    }
}
