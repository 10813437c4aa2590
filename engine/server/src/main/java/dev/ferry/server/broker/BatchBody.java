package dev.ferry.server.broker;

import dev.ferry.remoting.protocol.header.SendMessageRequestHeader;
import dev.ferry.store.MessageToStore;
import java.net.InetSocketAddress;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The body of SEND_BATCH_MESSAGE: messages one after another, each {@code int total size, int
 * magic, int body CRC, int flag, int body length + body, short properties length + properties}.
 * Each message keeps its own properties, unique id included.
 */
final class BatchBody {
    private static final int MAX_MESSAGES = 10_000;

    private BatchBody() {
    }

    /**
     * @throws IllegalArgumentException when the body is not a well-formed batch
     */
    static List<MessageToStore> decode(byte[] body, SendMessageRequestHeader header, int queueId,
                                       InetSocketAddress bornHost, InetSocketAddress storeHost) {
        if (body == null || body.length == 0) {
            throw new IllegalArgumentException("the batch is empty");
        }
        ByteBuffer in = ByteBuffer.wrap(body);
        List<MessageToStore> messages = new ArrayList<>();
        try {
            while (in.hasRemaining()) {
                int start = in.position();
                int totalSize = in.getInt();
                if (totalSize < 22 || totalSize > body.length - start) {
                    throw new IllegalArgumentException("batch message at byte " + start + " declares " + totalSize
                            + " bytes, but " + (body.length - start) + " remain");
                }
                in.getInt(); // magic code, unused in batches
                in.getInt(); // body CRC, computed by the store
                int flag = in.getInt();
                int bodyLength = in.getInt();
                if (bodyLength <= 0 || bodyLength > totalSize) {
                    throw new IllegalArgumentException("batch message at byte " + start + " has a body of "
                            + bodyLength + " bytes");
                }
                byte[] messageBody = new byte[bodyLength];
                in.get(messageBody);
                int propertiesLength = Short.toUnsignedInt(in.getShort());
                byte[] properties = new byte[propertiesLength];
                in.get(properties);
                if (in.position() - start != totalSize) {
                    throw new IllegalArgumentException("batch message at byte " + start + " declares " + totalSize
                            + " bytes but holds " + (in.position() - start));
                }
                if (messages.size() == MAX_MESSAGES) {
                    throw new IllegalArgumentException("a batch holds at most " + MAX_MESSAGES + " messages");
                }
                messages.add(MessageToStore.builder(header.topic(), queueId, messageBody).flag(flag)
                        .properties(new String(properties, StandardCharsets.UTF_8)).sysFlag(header.sysFlag())
                        .bornTimestamp(header.bornTimestamp()).bornHost(bornHost).storeHost(storeHost)
                        .reconsumeTimes(header.reconsumeTimes() == null ? 0 : header.reconsumeTimes()).build());
            }
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("the batch body ends in the middle of a message", e);
        }
        return messages;
    }
}
