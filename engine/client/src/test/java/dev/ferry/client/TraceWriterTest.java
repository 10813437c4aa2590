package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.api.Message;
import dev.ferry.format.Clock;
import dev.ferry.format.SystemTopics;
import dev.ferry.format.TraceRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The trace writer never holds up or fails what it traces: it drops and counts instead. */
class TraceWriterTest {
    private final List<Message> sent = new CopyOnWriteArrayList<>();
    private final List<CompletableFuture<Object>> pending = new CopyOnWriteArrayList<>();

    private CompletableFuture<?> send(Message message) {
        sent.add(message);
        CompletableFuture<Object> answer = new CompletableFuture<>();
        pending.add(answer);
        return answer;
    }

    private static TraceRecord pub(String topic, int i) {
        return new TraceRecord.Pub(i, TraceRecord.DEFAULT_REGION, "PG", topic, "ID" + i, null, "key" + i,
                "127.0.0.1:10911", 1, 0, TraceRecord.MessageType.NORMAL, "OFF" + i, true);
    }

    @Test
    void shouldSendQueuedRecordsAsOneMessagePerTracedTopicKeyedByIdAndKeys() {
        TraceWriter writer = new TraceWriter(SystemTopics.TRACE_TOPIC, this::send, Clock.system(), Runnable::run);
        writer.write(pub("TopicA", 1));
        writer.write(pub("TopicB", 2));
        writer.write(pub("TopicA", 3));

        writer.flush();

        assertThat(sent).hasSize(2);
        assertThat(sent).allSatisfy(message -> assertThat(message.topic()).isEqualTo(SystemTopics.TRACE_TOPIC));
        assertThat(sent.get(0).keys()).containsExactly("ID1", "key1", "ID3", "key3");
        assertThat(new String(sent.get(0).body(), StandardCharsets.UTF_8)).startsWith("Pub\u00011\u0001")
                .contains("\u0002Pub\u00013\u0001");
        pending.forEach(answer -> answer.complete("stored"));
        assertThat(writer.written()).isEqualTo(3);
        assertThat(writer.dropped()).isZero();
    }

    @Test
    void shouldDropAndCountRecordsWhenTheQueueIsFullWithoutBlockingTheWriter() {
        TraceWriter writer = new TraceWriter(SystemTopics.TRACE_TOPIC, this::send, Clock.system(), Runnable::run);
        for (int i = 0; i < TraceWriter.QUEUE_CAPACITY + 5; i++) {
            writer.write(pub("TopicA", i));
        }
        assertThat(writer.dropped()).isEqualTo(5);
        assertThat(sent).isEmpty();
    }

    @Test
    void shouldCountTheRecordsOfAFailedOrThrowingSendAsDropped() {
        TraceWriter failing = new TraceWriter(SystemTopics.TRACE_TOPIC, this::send, Clock.system(), Runnable::run);
        failing.write(pub("TopicA", 1));
        failing.write(pub("TopicA", 2));
        failing.flush();
        pending.get(0).completeExceptionally(new IllegalStateException("broker gone"));
        assertThat(failing.dropped()).isEqualTo(2);

        TraceWriter throwing = new TraceWriter(SystemTopics.TRACE_TOPIC, message -> {
            throw new IllegalStateException("producer closed");
        }, Clock.system(), Runnable::run);
        throwing.write(pub("TopicA", 3));
        throwing.flush();
        assertThat(throwing.dropped()).isEqualTo(1);

        TraceWriter refusing = new TraceWriter(SystemTopics.TRACE_TOPIC, this::send, Clock.system(), Runnable::run);
        refusing.write(new TraceRecord.SubBefore(1L, TraceRecord.DEFAULT_REGION, "CG", "R1", "ID1", 0, "\u0001"));
        refusing.flush();
        assertThat(refusing.dropped()).as("a key Ferry's message builder refuses").isEqualTo(1);
        refusing.write(pub("TopicA", 4));
        refusing.flush();
        assertThat(sent).as("the permit came back").isNotEmpty();
    }

    @Test
    void shouldStartNoMoreThanTheInFlightLimitOfSendsAndFlushAgainWhenOneEndsWithABatchWaiting() {
        TraceWriter writer = new TraceWriter(SystemTopics.TRACE_TOPIC, this::send, Clock.system(), Runnable::run);
        for (int i = 0; i < TraceWriter.QUEUE_CAPACITY; i++) {
            writer.write(pub("TopicA", i));
        }
        writer.flush();
        assertThat(sent).hasSize(TraceWriter.MAX_SENDS_IN_FLIGHT);

        for (int i = 0; i < TraceWriter.RECORDS_PER_FLUSH; i++) {
            writer.write(pub("TopicA", i));
        }
        pending.get(0).complete("stored"); // a batch's worth waits: the writer flushes without waiting for its round
        assertThat(sent).hasSize(TraceWriter.MAX_SENDS_IN_FLIGHT + 1);
        assertThat(writer.dropped()).isZero();
    }

    @Test
    void shouldCutABatchWhoseBodyWouldPassTheTraceMessageLimit() {
        List<TraceRecord> records = new ArrayList<>();
        String longKeys = "k".repeat(1_000);
        for (int i = 0; i < 200; i++) {
            records.add(new TraceRecord.Pub(i, TraceRecord.DEFAULT_REGION, "PG", "TopicA", "ID" + i, null, longKeys,
                    "127.0.0.1:10911", 1, 0, TraceRecord.MessageType.NORMAL, "OFF" + i, true));
        }
        List<List<TraceRecord>> batches = TraceWriter.batches(records);
        assertThat(batches).hasSizeGreaterThan(1);
        assertThat(batches.stream().mapToInt(List::size).sum()).isEqualTo(200);
        for (List<TraceRecord> batch : batches.subList(0, batches.size() - 1)) {
            int chars = new String(TraceRecord.body(batch), StandardCharsets.UTF_8).length();
            assertThat(chars).isGreaterThanOrEqualTo(TraceRecord.MAX_BATCH_CHARS)
                    .isLessThan(TraceRecord.MAX_BATCH_CHARS + 1_200);
        }
    }

    @Test
    void shouldDropRecordsWrittenAfterCloseAndSendWhatWasQueuedBefore() {
        TraceWriter writer = new TraceWriter(SystemTopics.TRACE_TOPIC, message -> {
            sent.add(message);
            return CompletableFuture.completedFuture("stored");
        }, Clock.system(), Runnable::run);
        writer.write(pub("TopicA", 1));
        writer.close(1_000);
        writer.write(pub("TopicA", 2));

        assertThat(sent).hasSize(1);
        assertThat(writer.written()).isEqualTo(1);
        assertThat(writer.dropped()).isEqualTo(1);
    }
}
