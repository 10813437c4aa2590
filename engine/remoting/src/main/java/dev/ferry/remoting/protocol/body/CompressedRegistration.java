package dev.ferry.remoting.protocol.body;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.InflaterInputStream;

/**
 * The compressed REGISTER_BROKER body, RocketMQ's {@code compressedRegister} layout: a zlib stream of big-endian
 * int-length-prefixed UTF-8 items: the data version as JSON; the topic count and each topic as
 * {@code "name read write perm FILTER_TYPE attributesJson"}; the filter server list as JSON; and (for 5.x peers) a
 * count of topic queue mappings, here always 0. About one tenth of the JSON form, which lets a broker with a hundred
 * thousand topics register within one 16 MiB frame. Topic flags and order are not carried, as in Apache's.
 *
 * <p>Decoding reads items as the body inflates, never holds more than the caller allows, never trusts a length or
 * count it has not checked against what is left, and reports any damage as a {@link BodyFormatException}.
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
     * Reads a compressed body as it inflates, item by item, never holding more than {@code maxInflatedBytes}.
     *
     * @param maxInflatedBytes the most bytes it may inflate to
     * @throws BodyFormatException when the body is damaged, inflates beyond the maximum or holds a bad item
     */
    public RegisterBrokerBody decode(byte[] compressed, int maxInflatedBytes) {
        try (Items in = new Items(new InflaterInputStream(new ByteArrayInputStream(compressed)), maxInflatedBytes)) {
            DataVersion version = json.decode(in.item("data version"), DataVersion.class);
            int count = in.count("topics");
            Map<String, TopicConfig> topics = new HashMap<>(Math.min(count, 1 << 16) * 2);
            for (int i = 0; i < count; i++) {
                TopicConfig topic = decodeTopic(new String(in.item("topic " + i), StandardCharsets.UTF_8));
                topics.put(topic.topicName(), topic);
            }
            List<String> filterServers = new ArrayList<>();
            if (!in.atEnd()) {
                filterServers.addAll(List.of(json.decode(in.item("filter servers"), String[].class)));
            }
            return new RegisterBrokerBody(new TopicConfigSerializeWrapper(topics, version), filterServers);
        } catch (BodyFormatException e) {
            throw e;
        } catch (EOFException e) {
            throw new BodyFormatException("the compressed registration ends early", e);
        } catch (IOException | RuntimeException e) {
            throw new BodyFormatException("damaged compressed registration: " + e, e);
        }
    }

    /** The items of an inflating stream, counting what has been read against the maximum. */
    private static final class Items implements AutoCloseable {
        private final InputStream source;
        private final long max;
        private long read;
        private int pushedBack = -1;

        Items(InputStream source, long max) {
            this.source = source;
            this.max = max;
        }

        /** An int length or count, then the bytes of an item of that length. */
        byte[] item(String what) throws IOException {
            int length = integer();
            if (length < 0 || length > max - read) {
                throw new BodyFormatException("the compressed registration's " + what + " claims " + length
                        + " bytes, beyond what it may inflate to");
            }
            byte[] bytes = new byte[length];
            fill(bytes);
            return bytes;
        }

        int count(String what) throws IOException {
            int count = integer();
            if (count < 0 || count > (max - read) / 4) {
                throw new BodyFormatException("the compressed registration claims " + count + " " + what);
            }
            return count;
        }

        /** Whether the stream has ended (an older peer writes no filter servers); a byte read ahead is kept. */
        boolean atEnd() throws IOException {
            if (pushedBack < 0) {
                pushedBack = source.read();
                if (pushedBack < 0) {
                    return true;
                }
                read++;
            }
            return false;
        }

        private int integer() throws IOException {
            byte[] bytes = new byte[4];
            fill(bytes);
            return ByteBuffer.wrap(bytes).getInt();
        }

        private void fill(byte[] bytes) throws IOException {
            int at = 0;
            if (pushedBack >= 0 && bytes.length > 0) {
                bytes[at++] = (byte) pushedBack; // counted when it was read ahead
                pushedBack = -1;
            }
            while (at < bytes.length) {
                int n = source.read(bytes, at, bytes.length - at);
                if (n < 0) {
                    throw new EOFException();
                }
                at += n;
                read += n;
                if (read > max) {
                    throw new BodyFormatException("the compressed registration inflates beyond " + max + " bytes");
                }
            }
        }

        @Override
        public void close() throws IOException {
            source.close();
        }
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
