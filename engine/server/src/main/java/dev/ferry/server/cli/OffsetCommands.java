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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
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
            + "after a time (mqadmin's resetOffsetByTime), or given queues to given offsets; online consumers are "
            + "told and re-read from there, offline groups reset in the broker.")
    int reset(@Parameters(paramLabel = "GROUP") String group,
              @Parameters(paramLabel = "TOPIC") String topic,
              @Option(names = "--to",
                      description = "ISO-8601 instant (2026-12-01T10:00:00Z), epoch milliseconds, or 'now'.")
              String to,
              @Option(names = "--offset", paramLabel = "BROKER:QUEUE=OFFSET",
                      description = "A queue's new offset (repeatable), instead of --to.")
              List<String> queueOffsets,
              @Option(names = "--no-force", description = "Only move offsets back, never forward.")
              boolean noForce) {
        boolean byQueue = queueOffsets != null && !queueOffsets.isEmpty();
        if ((to == null) == !byQueue) {
            throw new CommandLine.ParameterException(spec.commandLine(), "give either --to or --offset");
        }
        List<ResetOffsetRequestHeader> requests = new ArrayList<>();
        Map<ResetOffsetRequestHeader, String> brokers = new HashMap<>();
        if (byQueue) {
            for (String queueOffset : queueOffsets) {
                QueueOffset target = queueOffset(queueOffset);
                ResetOffsetRequestHeader header = new ResetOffsetRequestHeader(topic, group, target.queueId(),
                        target.offset(), 0, !noForce);
                requests.add(header);
                brokers.put(header, target.brokerName());
            }
        }
        long timestamp = byQueue ? 0 : timestamp(to);
        return admin.run(spec.subcommands().get("reset").getCommandSpec(), (calls, out) -> {
            Map<MessageQueueBody, Long> all = new TreeMap<>(QUEUE_ORDER);
            Map<String, String> masters = calls.topicMasterAddresses(topic);
            if (!byQueue) {
                masters.values().forEach(address -> requests.add(new ResetOffsetRequestHeader(topic, group, -1, -1L,
                        timestamp, !noForce)));
            }
            List<String> addresses = new ArrayList<>(masters.values());
            for (int i = 0; i < requests.size(); i++) {
                ResetOffsetRequestHeader header = requests.get(i);
                String address = byQueue ? masters.get(brokers.get(header)) : addresses.get(i);
                if (address == null) {
                    throw new IllegalArgumentException("no broker " + brokers.get(header) + " in the route of "
                            + topic + " (brokers: " + String.join(", ", masters.keySet()) + ")");
                }
                RemotingCommand answer = calls.call(address, RemotingCommand.request(
                        RequestCode.INVOKE_BROKER_TO_RESET_OFFSET, header).build());
                if (answer.body() != null && answer.body().length > 0) {
                    all.putAll(calls.body(answer, ResetOffsetBody.class).offsetTable());
                }
            }
            out.printf("reset group %s on %s %s%n", group, topic, byQueue ? "to the offsets given"
                    : "to " + Instant.ofEpochMilli(timestamp));
            out.printf("%-16s %5s %14s%n", "BROKER", "QUEUE", "OFFSET");
            all.forEach((queue, offset) -> out.printf("%-16s %5d %14d%n", queue.brokerName(), queue.queueId(),
                    offset));
        });
    }

    /** A queue and its new offset, as {@code --offset} gives them. */
    private record QueueOffset(String brokerName, int queueId, long offset) {
    }

    private QueueOffset queueOffset(String text) {
        int colon = text.lastIndexOf(':');
        int equals = text.lastIndexOf('=');
        try {
            if (colon > 0 && equals > colon + 1) {
                int queueId = Integer.parseInt(text.substring(colon + 1, equals).trim());
                long offset = Long.parseLong(text.substring(equals + 1).trim());
                if (queueId >= 0 && offset >= 0) {
                    return new QueueOffset(text.substring(0, colon).trim(), queueId, offset);
                }
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new CommandLine.ParameterException(spec.commandLine(), "--offset " + text
                + ": expected BROKER:QUEUE=OFFSET such as broker-a:0=120");
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
