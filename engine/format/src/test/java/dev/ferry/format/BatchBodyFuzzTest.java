package dev.ferry.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageDecoder;

/**
 * The batch body codec, on what any producer can send: Apache's own encoding of a batch (the oracle: every message
 * comes back with its flag, body and properties, and Ferry's encoding of them is Apache's byte for byte), that
 * encoding damaged, and random bytes. It returns messages whose bodies
 * fit the body it was given, or refuses with {@link IllegalArgumentException}; nothing else escapes, and it never
 * allocates more than the body holds.
 */
class BatchBodyFuzzTest {
    private static final int MAX_MESSAGES = 10_000;

    /** A batch as Apache's client encodes it, and the messages in it. */
    record Batch(byte[] bytes, List<Message> messages) {
    }

    @Provide
    Arbitrary<Batch> apacheBatches() {
        return Arbitraries.longs().map(seed -> {
            Random random = new Random(seed);
            List<Message> messages = new ArrayList<>();
            for (int i = 0; i < 1 + random.nextInt(20); i++) {
                byte[] body = new byte[1 + random.nextInt(300)];
                random.nextBytes(body);
                Message message = new Message("TopicBatch", body);
                message.setFlag(random.nextInt());
                message.putUserProperty("n", Integer.toString(i));
                if (random.nextBoolean()) {
                    message.setKeys("key-" + random.nextInt(1000));
                }
                messages.add(message);
            }
            return new Batch(MessageDecoder.encodeMessages(messages), messages);
        });
    }

    @Provide
    Arbitrary<byte[]> hostileBodies() {
        Arbitrary<byte[]> random = Arbitraries.bytes().array(byte[].class).ofMaxSize(2048);
        Arbitrary<byte[]> damaged = Arbitraries.longs().flatMap(seed -> apacheBatches().map(batch -> {
            Random r = new Random(seed);
            byte[] bytes = batch.bytes().clone();
            switch (r.nextInt(4)) {
                case 0 -> bytes[r.nextInt(bytes.length)] = (byte) r.nextInt(256);
                case 1 -> bytes = java.util.Arrays.copyOf(bytes, r.nextInt(bytes.length));
                case 2 -> ByteBuffer.wrap(bytes).putInt(4 * r.nextInt(Math.max(1, bytes.length / 4 - 1)),
                        r.nextBoolean() ? Integer.MAX_VALUE : -r.nextInt(1000));
                default -> ByteBuffer.wrap(bytes).putInt(0, r.nextInt());
            }
            return bytes;
        }));
        return Arbitraries.frequencyOf(Tuple.of(1, random), Tuple.of(3, damaged));
    }

    @Property(tries = 10_000, seed = "20261201")
    void shouldDecodeApachesBatchesWithEveryFieldAndEncodeThemTheSame(@ForAll("apacheBatches") Batch batch) {
        List<BatchBody.Item> decoded = BatchBody.decode(batch.bytes(), MAX_MESSAGES);

        assertThat(decoded).hasSameSizeAs(batch.messages());
        for (int i = 0; i < decoded.size(); i++) {
            Message apache = batch.messages().get(i);
            assertThat(decoded.get(i).flag()).isEqualTo(apache.getFlag());
            assertThat(decoded.get(i).body()).isEqualTo(apache.getBody());
            assertThat(MessageProperties.parse(decoded.get(i).properties())).isEqualTo(apache.getProperties());
        }
        assertThat(BatchBody.encode(decoded)).isEqualTo(batch.bytes());
    }

    @Property(seed = "20261201") // tries: the budget's (jqwik.tries.default, docs/testing.md)
    void shouldDecodeWhatFitsOrRefuseWithAClearError(@ForAll("hostileBodies") byte[] body) {
        List<BatchBody.Item> decoded;
        try {
            decoded = BatchBody.decode(body, MAX_MESSAGES);
        } catch (IllegalArgumentException refused) {
            assertThat(refused.getMessage()).isNotBlank();
            return;
        }
        long total = 0;
        for (BatchBody.Item message : decoded) {
            assertThat(message.body()).isNotEmpty();
            total += message.body().length + message.properties().getBytes(StandardCharsets.UTF_8).length;
        }
        assertThat(total).isLessThanOrEqualTo(body.length);
    }
}
