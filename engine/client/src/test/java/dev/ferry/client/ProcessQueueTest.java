package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.api.MessageQueue;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.format.ManualClock;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** The committed offset is the lowest offset still in flight; flow-control measures; seeks. */
class ProcessQueueTest {
    private final ProcessQueue queue = new ProcessQueue(new MessageQueue("T", "b", 0), 10, new ManualClock());

    private static ReceivedMessage at(long offset) {
        return new ReceivedMessage("T", new byte[10], Map.of(), "id" + offset, "b", 0, offset, offset * 100, 0, 0,
                0);
    }

    private static List<ReceivedMessage> range(long from, long to) {
        return LongStream.range(from, to).mapToObj(ProcessQueueTest::at).toList();
    }

    @Test
    void shouldCommitTheLowestOffsetStillInFlight() {
        queue.pulled(0, range(10, 15), 15);
        assertThat(queue.consumed(List.of(at(11), at(12)))).isEqualTo(10);
        assertThat(queue.consumed(List.of(at(10)))).isEqualTo(13);
        assertThat(queue.consumed(List.of(at(13), at(14)))).isEqualTo(15);
    }

    @Test
    void shouldCommitTheBrokersNextOffsetWhenEverythingWasFilteredOut() {
        queue.pulled(0, List.of(), 20);
        assertThat(queue.committableOffset()).isEqualTo(20);
        assertThat(queue.pullPosition().offset()).isEqualTo(20);
    }

    @Test
    void shouldMeasureCountBytesAndSpanForFlowControl() {
        queue.pulled(0, range(10, 20), 20);
        assertThat(queue.messageCount()).isEqualTo(10);
        assertThat(queue.messageBytes()).isEqualTo(100);
        assertThat(queue.offsetSpan()).isEqualTo(9);
        queue.consumed(range(10, 19));
        assertThat(queue.offsetSpan()).isZero();
    }

    @Test
    void shouldIgnoreResultsOfPullsStartedBeforeASeek() {
        int epoch = queue.pullPosition().epoch();
        queue.seek(3);
        assertThat(queue.pulled(epoch, range(10, 12), 12)).isFalse();
        assertThat(queue.pullPosition().offset()).isEqualTo(3);
        assertThat(queue.committableOffset()).isEqualTo(3);
    }
}
