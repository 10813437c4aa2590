package dev.ferry.server.apache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.OffsetMessageId;
import dev.ferry.server.FerryServerConfig;
import dev.ferry.store.FlushMode;
import dev.ferry.store.MessageStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A ferry-server with synchronous flush, sent to by the Apache client: acknowledged means durable. */
@Tag("integration")
class SyncFlushSendTest {
    private static final int SENDERS = 8;
    private static final int SENDS_EACH = 50;

    @TempDir
    Path dir;

    private static FerryServerConfig syncFlush(Path storeDir) {
        return FerryServerConfig.builder(storeDir).namesrvPort(0).brokerPort(0).flushMode(FlushMode.SYNC_FLUSH)
                .commitLogSegmentSize(8 * 1024 * 1024).build();
    }

    private static DefaultMQProducer producer(FerryServerFixture ferry, String group) throws Exception {
        DefaultMQProducer producer = new DefaultMQProducer(group);
        producer.setNamesrvAddr(ferry.nameServer());
        producer.setInstanceName(group + System.nanoTime());
        producer.start();
        return producer;
    }

    @Test
    void shouldAcknowledgeConcurrentSendsOnlyOnceDurableWithTheirForcesShared() throws Exception {
        try (FerryServerFixture ferry = new FerryServerFixture(syncFlush(dir))) {
            MessageStore store = ferry.server().broker().store();
            DefaultMQProducer producer = producer(ferry, "PG_SYNC_FLUSH");
            ExecutorService senders = Executors.newFixedThreadPool(SENDERS);
            try {
                producer.send(new Message("TopicSyncFlush", "first".getBytes(StandardCharsets.UTF_8)));
                long forcesBefore = store.commitLogForces();
                List<Future<List<String>>> problems = new ArrayList<>();
                for (int s = 0; s < SENDERS; s++) {
                    int sender = s;
                    problems.add(senders.submit(() -> {
                        List<String> found = new ArrayList<>();
                        for (int i = 0; i < SENDS_EACH; i++) {
                            SendResult result = producer.send(new Message("TopicSyncFlush",
                                    (sender + ":" + i).getBytes(StandardCharsets.UTF_8)));
                            long offset = OffsetMessageId.decode(result.getOffsetMsgId()).physicalOffset();
                            if (result.getSendStatus() != SendStatus.SEND_OK
                                    || store.commitLogFlushedOffset() <= offset) {
                                found.add(result.getSendStatus() + " at " + offset + ", flushed "
                                        + store.commitLogFlushedOffset());
                            }
                        }
                        return found;
                    }));
                }
                for (Future<List<String>> f : problems) {
                    assertThat(f.get(60, TimeUnit.SECONDS)).as("sends acknowledged before durable").isEmpty();
                }
                // one send thread appends them all; with eight senders in flight a force covers several
                assertThat(store.commitLogForces() - forcesBefore).as("forces for %d sends", SENDERS * SENDS_EACH)
                        .isLessThan(SENDERS * SENDS_EACH / 2);
            } finally {
                senders.shutdownNow();
                producer.shutdown();
            }
        }
    }

    @Test
    void shouldAcknowledgeABatchOnceItsLastMessageIsDurable() throws Exception {
        try (FerryServerFixture ferry = new FerryServerFixture(syncFlush(dir))) {
            MessageStore store = ferry.server().broker().store();
            DefaultMQProducer producer = producer(ferry, "PG_SYNC_BATCH");
            try {
                producer.send(new Message("TopicSyncBatch", "first".getBytes(StandardCharsets.UTF_8)));
                List<Message> batch = new ArrayList<>();
                for (int i = 0; i < 10; i++) {
                    batch.add(new Message("TopicSyncBatch", ("b" + i).getBytes(StandardCharsets.UTF_8)));
                }

                SendResult result = producer.send(batch);

                assertThat(result.getSendStatus()).isEqualTo(SendStatus.SEND_OK);
                String[] ids = result.getOffsetMsgId().split(",");
                assertThat(ids).hasSize(10);
                long last = OffsetMessageId.decode(ids[9]).physicalOffset();
                assertThat(store.commitLogFlushedOffset()).isGreaterThan(last);
                assertThat(store.messageAt(last)).isPresent();
            } finally {
                producer.shutdown();
            }
        }
    }
}
