package dev.ferry.remoting.protocol.body;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.Inflater;

/**
 * The compressed REGISTER_BROKER body, RocketMQ's {@code compressedRegister} layout: a zlib stream of big-endian
 * int-length-prefixed UTF-8 items: the data version as JSON; the topic count and each topic as
 * {@code "name read write perm FILTER_TYPE attributesJson"}; the filter server list as JSON; and (for 5.x peers) a
 * count of topic queue mappings, here always 0. About one tenth of the JSON form, which lets a broker with a hundred
 * thousand topics register within one 16 MiB frame. Topic flags and order are not carried, as in Apache's.
 *
 * <p>Decoding never inflates more than the caller allows, never trusts a length or count it has not checked against
 * what is left, and reports any damage as a {@link BodyFormatException}.
 */
public final class CompressedRegistration {
    private final BodyCodec json;

    public CompressedRegistration(BodyCodec json) {
        this.json = json;
    }

    /** The compressed body for a broker's topics. */
    public byte[] encode(RegisterBrokerBody body) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Deflater deflater = new Deflater(Deflater.BEST_SPEED);
        try (DeflaterOutputStream out = new DeflaterOutputStream(bytes, deflater, 64 * 1024)) {
            TopicConfigSerializeWrapper wrapper = body.topicConfigSerializeWrapper();
            item(out, json.encode(wrapper.dataVersion() == null ? new DataVersion(0, 0, 0) : wrapper.dataVersion()));
            out.write(intBytes(wrapper.topicConfigTable().size()));
            for (TopicConfig topic : wrapper.topicConfigTable().values()) {
                item(out, encodeTopic(topic).getBytes(StandardCharsets.UTF_8));
            }
            item(out, json.encode(body.filterServerList()));
            out.write(intBytes(0)); // no topic queue mappings
        } catch (IOException e) {
            throw new UncheckedIOException("cannot compress a registration", e);
        } finally {
            deflater.end();
        }
        return bytes.toByteArray();
    }

    private static String encodeTopic(TopicConfig topic) {
        return topic.topicName() + ' ' + topic.readQueueNums() + ' ' + topic.writeQueueNums() + ' ' + topic.perm()
                + ' ' + topic.topicFilterType() + ' ' + attributesJson(topic.attributes());
    }

    private static String attributesJson(Map<String, String> attributes) {
        StringBuilder out = new StringBuilder("{");
        attributes.forEach((key, value) -> {
            if (out.length() > 1) {
                out.append(',');
            }
            out.append('"').append(escape(key)).append("\":\"").append(escape(value)).append('"');
        });
        return out.append('}').toString();
    }

    private static String escape(String text) {
        return text.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    private static void item(DeflaterOutputStream out, byte[] bytes) throws IOException {
        out.write(intBytes(bytes.length));
        out.write(bytes);
    }

    private static byte[] intBytes(int value) {
        return ByteBuffer.allocate(4).putInt(value).array();
    }

    /**
     * Reads a compressed body.
     *
     * @param maxInflatedBytes the most bytes it may inflate to
     * @throws BodyFormatException when the body is damaged, inflates beyond the maximum or holds a bad item
     */
    public RegisterBrokerBody decode(byte[] compressed, int maxInflatedBytes) {
        ByteBuffer in = ByteBuffer.wrap(inflate(compressed, maxInflatedBytes));
        try {
            DataVersion version = json.decode(item(in, "data version"), DataVersion.class);
            int count = count(in, "topics", 4);
            Map<String, TopicConfig> topics = new HashMap<>(Math.min(count, 1 << 16) * 2);
            for (int i = 0; i < count; i++) {
                TopicConfig topic = decodeTopic(new String(item(in, "topic " + i), StandardCharsets.UTF_8));
                topics.put(topic.topicName(), topic);
            }
            List<String> filterServers = new ArrayList<>();
            if (in.hasRemaining()) {
                String[] servers = json.decode(item(in, "filter servers"), String[].class);
                filterServers.addAll(List.of(servers));
            }
            return new RegisterBrokerBody(new TopicConfigSerializeWrapper(topics, version), filterServers);
        } catch (RuntimeException e) {
            if (e instanceof BodyFormatException) {
                throw e;
            }
            throw new BodyFormatException("damaged compressed registration: " + e, e);
        }
    }

    private static byte[] inflate(byte[] compressed, int maxInflatedBytes) {
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(compressed);
            ByteArrayOutputStream out = new ByteArrayOutputStream(Math.min(maxInflatedBytes, compressed.length * 8));
            byte[] chunk = new byte[64 * 1024];
            while (!inflater.finished()) {
                int n = inflater.inflate(chunk);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new BodyFormatException("the compressed registration ends early");
                }
                if (out.size() + n > maxInflatedBytes) {
                    throw new BodyFormatException("the compressed registration inflates beyond " + maxInflatedBytes
                            + " bytes");
                }
                out.write(chunk, 0, n);
            }
            return out.toByteArray();
        } catch (DataFormatException e) {
            throw new BodyFormatException("the registration is not a zlib stream: " + e.getMessage(), e);
        } finally {
            inflater.end();
        }
    }

    private static int count(ByteBuffer in, String what, int smallestItem) {
        int count = in.remaining() >= 4 ? in.getInt() : -1;
        if (count < 0 || (long) count * smallestItem > in.remaining()) {
            throw new BodyFormatException("the compressed registration's count of " + what + " (" + count
                    + ") does not fit its " + in.remaining() + " remaining bytes");
        }
        return count;
    }

    private static byte[] item(ByteBuffer in, String what) {
        int length = count(in, "bytes of the " + what, 1);
        byte[] bytes = new byte[length];
        in.get(bytes);
        return bytes;
    }

    private TopicConfig decodeTopic(String text) {
        String[] parts = text.split(" ", 6);
        if (parts.length < 5) {
            throw new BodyFormatException("a topic of the compressed registration has " + parts.length
                    + " fields, not 5 or 6");
        }
        Map<String, String> attributes = new HashMap<>();
        if (parts.length == 6 && !parts[5].isBlank()) {
            Map<?, ?> parsed = json.decode(parts[5].getBytes(StandardCharsets.UTF_8), Map.class);
            parsed.forEach((key, value) -> attributes.put(String.valueOf(key), String.valueOf(value)));
        }
        try {
            return new TopicConfig(parts[0], Integer.parseInt(parts[1]), Integer.parseInt(parts[2]),
                    Integer.parseInt(parts[3]), parts[4], 0, false, attributes);
        } catch (NumberFormatException e) {
            throw new BodyFormatException("a topic of the compressed registration has a bad number: "
                    + e.getMessage(), e);
        }
    }
}
