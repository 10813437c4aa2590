package dev.ferry.server.cli;

import dev.ferry.format.BodyCompression;
import dev.ferry.format.MessageProperties;
import dev.ferry.format.OffsetMessageId;
import dev.ferry.format.StoredEntries;
import dev.ferry.format.StoredMessageCodec;
import dev.ferry.format.StoredMessageView;
import dev.ferry.format.SysFlags;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RemotingException;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.header.QueryMessageRequestHeader;
import dev.ferry.remoting.protocol.header.ViewMessageRequestHeader;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ferry-server admin message by-key|by-id}: stored messages found by key or id, as mqadmin finds them. */
@Command(name = "message", mixinStandardHelpOptions = true, description = "Finds stored messages.")
final class MessageCommands {
    /** Bodies longer than this are shown by size only. */
    static final int SHOWN_BODY = 4096;

    @CommandLine.ParentCommand
    AdminCommand admin;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Command(name = "by-key", description = "Messages of a topic with a key (mqadmin's queryMsgByKey).")
    int byKey(@Parameters(paramLabel = "TOPIC") String topic,
              @Parameters(paramLabel = "KEY") String key,
              @Option(names = "--max", defaultValue = "64", description = "At most this many per broker.") int max) {
        return admin.run(spec.subcommands().get("by-key").getCommandSpec(), (calls, out) -> {
            List<StoredMessageView> found = new ArrayList<>();
            for (String broker : calls.topicMasters(topic)) {
                found.addAll(query(calls, broker, topic, key, max, false));
            }
            List<StoredMessageView> matching = found.stream().filter(m -> m.topic().equals(topic)
                    && List.of(String.valueOf(m.property(MessageProperties.KEYS)).split(" ")).contains(key)).toList();
            out.printf("%-32s %-32s %5s %12s %-24s%n", "MESSAGE_ID", "OFFSET_ID", "QUEUE", "OFFSET", "STORED");
            for (StoredMessageView m : matching) {
                out.printf("%-32s %-32s %5d %12d %-24s%n", m.property(MessageProperties.UNIQ_KEY),
                        m.offsetMessageId(), m.queueId(), m.queueOffset(), Instant.ofEpochMilli(m.storeTimestamp()));
            }
            out.printf("%d messages%n", matching.size());
        });
    }

    @Command(name = "by-id", description = "One message by its id (mqadmin's queryMsgById): an offset id is read "
            + "where it was stored, a client id looked up on the topic's brokers.")
    int byId(@Parameters(paramLabel = "TOPIC") String topic, @Parameters(paramLabel = "ID") String id) {
        return admin.run(spec.subcommands().get("by-id").getCommandSpec(), (calls, out) -> {
            StoredMessageView message = byOffsetId(calls, topic, id);
            if (message == null) {
                for (String broker : calls.topicMasters(topic)) {
                    for (StoredMessageView m : query(calls, broker, topic, id, 32, true)) {
                        if (id.equals(m.property(MessageProperties.UNIQ_KEY))) {
                            message = m;
                        }
                    }
                }
            }
            if (message == null) {
                throw new AdminCalls.Refused("no message of " + topic + " has the id " + id,
                        ResponseCode.QUERY_NOT_FOUND);
            }
            print(message, out);
        });
    }

    /** The message an offset id names, or {@code null} when {@code id} is not one or its broker does not have it. */
    private static StoredMessageView byOffsetId(AdminCalls calls, String topic, String id) {
        OffsetMessageId offsetId;
        try {
            offsetId = OffsetMessageId.decode(id);
        } catch (IllegalArgumentException e) {
            return null;
        }
        String address = offsetId.storeHost().getHostString() + ":" + offsetId.storeHost().getPort();
        try {
            RemotingCommand answer = calls.call(address, RemotingCommand.request(RequestCode.VIEW_MESSAGE_BY_ID,
                    new ViewMessageRequestHeader(topic, offsetId.physicalOffset())).build());
            List<StoredMessageView> messages = messages(answer.body());
            return messages.isEmpty() ? null : messages.get(0);
        } catch (AdminCalls.Refused | RemotingException e) {
            return null; // a client id that happens to decode: look it up by key instead
        }
    }

    private static List<StoredMessageView> query(AdminCalls calls, String broker, String topic, String key, int max,
                                                 boolean uniqueKey) {
        RemotingCommand answer = calls.call(broker, RemotingCommand.request(RequestCode.QUERY_MESSAGE,
                new QueryMessageRequestHeader(topic, key, max, 0, Long.MAX_VALUE))
                .extField(QueryMessageRequestHeader.UNIQUE_KEY_QUERY, String.valueOf(uniqueKey)).build(), ResponseCode.QUERY_NOT_FOUND);
        return answer.code() == ResponseCode.SUCCESS ? messages(answer.body()) : List.of();
    }

    /** The stored messages a body holds one after another, each led by its total size. */
    static List<StoredMessageView> messages(byte[] body) {
        if (body == null) {
            return new ArrayList<>();
        }
        List<StoredMessageView> messages = new ArrayList<>();
        try {
            for (ByteBuffer record : StoredEntries.records(ByteBuffer.wrap(body))) {
                String problem = StoredMessageCodec.layoutProblem(record);
                if (problem != null) {
                    throw new IllegalArgumentException(problem);
                }
                messages.add(StoredMessageView.over(record));
            }
        } catch (IllegalArgumentException e) {
            throw new AdminCalls.Refused("a stored message in the answer is malformed: " + e.getMessage(),
                    ResponseCode.SYSTEM_ERROR);
        }
        return messages;
    }

    private static void print(StoredMessageView m, PrintWriter out) {
        Map<String, String> properties = new TreeMap<>(m.properties());
        out.printf("%-20s %s%n", "Message ID", properties.getOrDefault(MessageProperties.UNIQ_KEY,
                m.offsetMessageId()));
        out.printf("%-20s %s%n", "Offset ID", m.offsetMessageId());
        out.printf("%-20s %s%n", "Topic", m.topic());
        out.printf("%-20s %s%n", "Tags", properties.getOrDefault(MessageProperties.TAGS, ""));
        out.printf("%-20s %s%n", "Keys", properties.getOrDefault(MessageProperties.KEYS, ""));
        out.printf("%-20s %d%n", "Queue ID", m.queueId());
        out.printf("%-20s %d%n", "Queue Offset", m.queueOffset());
        out.printf("%-20s %d%n", "CommitLog Offset", m.physicalOffset());
        out.printf("%-20s %d%n", "Reconsume Times", m.reconsumeTimes());
        out.printf("%-20s %s%n", "Born Timestamp", Instant.ofEpochMilli(m.bornTimestamp()));
        out.printf("%-20s %s%n", "Store Timestamp", Instant.ofEpochMilli(m.storeTimestamp()));
        out.printf("%-20s %s%n", "Born Host", m.bornHost());
        out.printf("%-20s %s%n", "Store Host", m.storeHost());
        out.printf("%-20s %s%n", "Properties", properties);
        out.printf("%-20s %s%n", "Body", body(m));
    }

    private static String body(StoredMessageView m) {
        byte[] bytes = m.bodyBytes();
        if ((m.sysFlag() & SysFlags.COMPRESSED) != 0) {
            try {
                bytes = BodyCompression.inflate(bytes, m.sysFlag(), SHOWN_BODY + 1);
            } catch (IllegalArgumentException e) {
                return bytes.length + " compressed bytes (larger than " + SHOWN_BODY + " bytes, or not readable)";
            }
        }
        if (bytes.length > SHOWN_BODY) {
            return bytes.length + " bytes";
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return bytes.length + " bytes, not UTF-8 text";
        }
    }
}
