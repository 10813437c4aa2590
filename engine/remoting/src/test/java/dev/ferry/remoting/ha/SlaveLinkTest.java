package dev.ferry.remoting.ha;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.Clock;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * A master's link to one slave: it streams from where the slave's commit log ends, counts a report only as far as it
 * streamed, and refuses a slave whose commit log is ahead of its own.
 */
class SlaveLinkTest {
    private final byte[] log = new byte[100];
    private final List<long[]> acknowledged = new ArrayList<>();
    private final List<Object> gone = new ArrayList<>();
    private final Map<Long, SlaveLink> links = new ConcurrentHashMap<>();

    private final HaSource source = new HaSource() {
        @Override
        public long minOffset() {
            return 0;
        }

        @Override
        public long endOffset() {
            return log.length;
        }

        @Override
        public Optional<ByteBuffer> read(long offset, int maxBytes) {
            int length = (int) Math.min(maxBytes, log.length - offset);
            return length > 0 ? Optional.of(ByteBuffer.wrap(log, (int) offset, length).slice())
                    : Optional.empty();
        }
    };

    private final HaSlaveListener listener = new HaSlaveListener() {
        @Override
        public void acknowledged(Object link, long offset) {
            acknowledged.add(new long[] {offset});
        }

        @Override
        public void slaveGone(Object link) {
            gone.add(link);
        }
    };

    private EmbeddedChannel link() {
        for (int i = 0; i < log.length; i++) {
            log[i] = (byte) i;
        }
        return new EmbeddedChannel(new SlaveLink(1, source, listener, Clock.system(), links));
    }

    private static ByteBuf report(long offset) {
        return Unpooled.buffer(8).writeLong(offset);
    }

    @Test
    void shouldStreamFromTheSlavesEndAndCountNoReportBeyondWhatItSent() {
        EmbeddedChannel channel = link();
        channel.writeInbound(report(40));
        ByteBuf frame = channel.readOutbound();
        assertThat(frame.readLong()).as("from where the slave's log ends").isEqualTo(40);
        assertThat(frame.readInt()).isEqualTo(60);
        assertThat(frame.readByte()).isEqualTo((byte) 40);
        frame.release();
        assertThat(acknowledged).extracting(a -> a[0]).containsExactly(40L);

        channel.writeInbound(report(Long.MAX_VALUE)); // a report of more than it was sent proves nothing more
        assertThat(acknowledged).extracting(a -> a[0]).containsExactly(40L, 100L);
        channel.close();
        assertThat(gone).hasSize(1);
        assertThat(links).isEmpty();
    }

    @Test
    void shouldRefuseASlaveWhoseCommitLogIsAheadOfTheMasters() {
        EmbeddedChannel channel = link();
        channel.writeInbound(report(500));
        assertThat(channel.isOpen()).isFalse();
        Object sent = channel.readOutbound();
        assertThat(sent).as("nothing streamed").isNull();
        assertThat(acknowledged).isEmpty();
    }

    @Test
    void shouldCloseTheOlderConnectionWhenTheSameSlaveConnectsAgain() {
        EmbeddedChannel older = link();
        EmbeddedChannel newer = link();
        assertThat(older.isOpen()).as("the slave's half-open connection makes room").isFalse();
        assertThat(newer.isOpen()).isTrue();
        assertThat(links).hasSize(1);
        assertThat(gone).hasSize(1);
        newer.close();
        assertThat(links).isEmpty();
    }
}
