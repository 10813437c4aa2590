package dev.ferry.remoting.protocol.body;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.zip.DeflaterOutputStream;
import org.junit.jupiter.api.Test;

class CompressedRegistrationTest {
    private final CompressedRegistration codec = new CompressedRegistration(new BodyCodec());

    private static byte[] deflate(byte[]... parts) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DeflaterOutputStream out = new DeflaterOutputStream(bytes)) {
            for (byte[] part : parts) {
                out.write(part);
            }
        }
        return bytes.toByteArray();
    }

    @Test
    void shouldReadBackWhatItWrites() {
        RegisterBrokerBody body = new RegisterBrokerBody(new TopicConfigSerializeWrapper(Map.of("T",
                new TopicConfig("T", 4, 2, 6, "SINGLE_TAG", 0, false, Map.of("k", "v"))), new DataVersion(1, 2, 3)),
                List.of("127.0.0.1:1"));

        RegisterBrokerBody back = codec.decode(codec.encode(body), 1 << 20);

        assertThat(back.topicConfigSerializeWrapper().topicConfigTable().get("T").writeQueueNums()).isEqualTo(2);
        assertThat(back.topicConfigSerializeWrapper().topicConfigTable().get("T").attributes()).containsEntry("k", "v");
        assertThat(back.topicConfigSerializeWrapper().dataVersion()).isEqualTo(new DataVersion(1, 2, 3));
        assertThat(back.filterServerList()).containsExactly("127.0.0.1:1");
    }

    @Test
    void shouldStopInflatingABombAtItsLimitWithoutAllocatingWhatItClaims() throws IOException {
        byte[] version = "{}".getBytes();
        // a topic item claiming a gigabyte, then megabytes of zeros that deflate to almost nothing
        byte[] bomb = deflate(ByteBuffer.allocate(4).putInt(version.length).array(), version,
                ByteBuffer.allocate(4).putInt(1).array(), ByteBuffer.allocate(4).putInt(1 << 30).array(),
                new byte[32 << 20]);
        assertThat(bomb.length).isLessThan(64 * 1024);

        assertThatThrownBy(() -> codec.decode(bomb, 1 << 20)).isInstanceOf(BodyFormatException.class)
                .hasMessageContaining("beyond what it may inflate to");
        byte[] servers = "[]".getBytes();
        byte[] trailingZeros = deflate(ByteBuffer.allocate(4).putInt(version.length).array(), version,
                ByteBuffer.allocate(4).putInt(0).array(), ByteBuffer.allocate(4).putInt(servers.length).array(),
                servers, new byte[32 << 20]);
        RegisterBrokerBody read = codec.decode(trailingZeros, 1 << 20);
        assertThat(read.filterServerList()).as("what follows the items is never inflated").isEmpty();
    }

    @Test
    void shouldRefuseDamageAsABodyFormatError() {
        assertThatThrownBy(() -> codec.decode(new byte[] {1, 2, 3, 4}, 1 << 20))
                .isInstanceOf(BodyFormatException.class);
        assertThatThrownBy(() -> codec.decode(new byte[0], 1 << 20)).isInstanceOf(BodyFormatException.class);
    }
}
