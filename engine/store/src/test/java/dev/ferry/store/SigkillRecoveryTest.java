package dev.ferry.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.ChildJvm;
import dev.ferry.format.StoredMessageView;
import dev.ferry.format.RoundBudget;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A child JVM appends with SYNC_FLUSH and is killed with SIGKILL at a random moment, 6 times in a row (20 with the long test
 * budget) on the same store: every acknowledged append must be readable with identical bytes, nothing beyond the torn point is served, and
 * consume queues agree with the commit log.
 */
@Tag("integration")
class SigkillRecoveryTest {
    private static final int ROUNDS = RoundBudget.rounds(6, 20);

    @TempDir
    Path dir;

    static StoreConfig config(Path dir) {
        return TestMessages.smallConfig(dir).flushMode(FlushMode.SYNC_FLUSH).build();
    }

    /** One acknowledged append as the child reported it. */
    private record Ack(int round, int seq, long physicalOffset, int queueId, long queueOffset, int size) {
        static Ack parse(String line) {
            String[] f = line.split(" ");
            return new Ack(Integer.parseInt(f[1]), Integer.parseInt(f[2]), Long.parseLong(f[3]),
                Integer.parseInt(f[4]), Long.parseLong(f[5]), Integer.parseInt(f[6]));
        }
    }

    @Test
    void shouldKeepEveryAcknowledgedAppendAcrossRepeatedSigkills() throws Exception {
        Random random = new Random(20_260_101L);
        List<Ack> acknowledged = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            List<Ack> acks = runAndKill(round, random.nextInt(150));
            assertThat(acks).as("round %d acknowledged appends", round).isNotEmpty();
            acknowledged.addAll(acks);
            try (MessageStore store = MessageStore.builder(config(dir)).open()) {
                assertThat(store.recoveryReport().cleanShutdown()).isFalse();
                verify(store, acknowledged);
                assertThat(store.backgroundFailures()).isZero();
            }
        }
    }

    private List<Ack> runAndKill(int round, int killAfterMillis) throws Exception {
        List<String> command = new ArrayList<>(ChildJvm.launcher("128m"));
        command.addAll(List.of("-cp", ChildJvm.classPath(), CrashingAppender.class.getName(), dir.toString(),
            Integer.toString(round)));
        Process child = new ProcessBuilder(command)
            .redirectErrorStream(false)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
        List<Ack> acks = new CopyOnWriteArrayList<>();
        CountDownLatch firstAck = new CountDownLatch(1);
        Thread reader = new Thread(() -> readAcks(child, acks, firstAck), "ack-reader-" + round);
        reader.start();
        try {
            assertThat(firstAck.await(30, TimeUnit.SECONDS)).as("child appending").isTrue();
            Thread.sleep(killAfterMillis);
        } finally {
            child.destroyForcibly();
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            reader.join(Duration.ofSeconds(10).toMillis());
        }
        return List.copyOf(acks);
    }

    private static void readAcks(Process child, List<Ack> acks, CountDownLatch firstAck) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(),
            StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.startsWith("ACK ")) {
                    acks.add(Ack.parse(line));
                    firstAck.countDown();
                }
            }
        } catch (IOException | RuntimeException e) {
            // the child was killed mid-line: whatever was read completely counts
        }
    }

    private static void verify(MessageStore store, List<Ack> acknowledged) {
        long validEnd = store.recoveryReport().validEndOffset();
        for (Ack ack : acknowledged) {
            MessageToStore expected = CrashingAppender.message(ack.round(), ack.seq());
            StoredMessageView view = store.messageAt(ack.physicalOffset()).orElseThrow(
                () -> new AssertionError("acknowledged append lost: " + ack));
            assertThat(view.totalSize()).isEqualTo(ack.size());
            assertThat(view.physicalOffset() + view.totalSize()).isLessThanOrEqualTo(validEnd);
            assertThat(view.bodyBytes()).isEqualTo(expected.body());
            assertThat(view.propertiesString()).isEqualTo(expected.properties());
            assertThat(view.bornTimestamp()).isEqualTo(expected.bornTimestamp());
            assertThat(view.queueOffset()).isEqualTo(ack.queueOffset());
            GetMessageResult read = store.getMessages(CrashingAppender.TOPIC, ack.queueId(), ack.queueOffset(), 1,
                1 << 20, MessageFilterPredicate.ALL);
            assertThat(read.status()).isEqualTo(GetMessageStatus.FOUND);
            assertThat(read.messages().get(0)).isEqualTo(view.bytes());
        }
        assertThat(store.messageAt(validEnd)).as("nothing served beyond the torn point").isEmpty();
        for (int q = 0; q < CrashingAppender.QUEUES; q++) {
            assertQueueAgreesWithCommitLog(store, q, validEnd);
        }
    }

    private static void assertQueueAgreesWithCommitLog(MessageStore store, int queueId, long validEnd) {
        long max = store.nextOffset(CrashingAppender.TOPIC, queueId);
        for (long offset = store.minOffset(CrashingAppender.TOPIC, queueId); offset < max; offset += 32) {
            GetMessageResult read = store.getMessages(CrashingAppender.TOPIC, queueId, offset, 32, 1 << 24,
                MessageFilterPredicate.ALL);
            assertThat(read.status()).isEqualTo(GetMessageStatus.FOUND);
            List<StoredMessageView> views = read.views();
            for (int i = 0; i < views.size(); i++) {
                StoredMessageView view = views.get(i);
                assertThat(view.queueId()).isEqualTo(queueId);
                assertThat(view.queueOffset()).isEqualTo(read.queueOffsets().get(i));
                assertThat(view.computeBodyCrc()).isEqualTo(view.bodyCrc());
                assertThat(view.physicalOffset() + view.totalSize()).isLessThanOrEqualTo(validEnd);
            }
        }
    }
}
