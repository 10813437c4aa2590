package dev.ferry.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.format.StoredMessageView;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Under sync flush the next commit-log segment is made ahead of time, zero-filled, and the roll takes it. */
class SegmentZeroFillTest {
    private static final int SEGMENT = 64 * 1024;

    @TempDir
    Path dir;

    @Test
    void shouldMakeEachNextSegmentAheadAndRollIntoIt() throws IOException {
        StoreConfig config = TestMessages.smallConfig(dir).flushMode(FlushMode.SYNC_FLUSH).build();
        Path commitLog = dir.resolve("commitlog");
        List<String> bodies = new ArrayList<>();
        try (MessageStore store = MessageStore.builder(config).open()) {
            Path first = commitLog.resolve(MappedSegment.fileName(0) + ".zero-filled");
            await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(first));
            assertThat(Files.size(first)).isEqualTo(SEGMENT);

            store.append(TestMessages.message("Ahead", 0, "first"));
            bodies.add("first");
            assertThat(first).doesNotExist();
            assertThat(commitLog.resolve(MappedSegment.fileName(0))).exists();

            Path second = commitLog.resolve(MappedSegment.fileName(SEGMENT) + ".zero-filled");
            await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(second));
            for (int i = 0; store.commitLogEndOffset() <= SEGMENT; i++) {
                String body = "m" + i + "-" + "x".repeat(900);
                assertThat(store.append(TestMessages.message("Ahead", 0, body)).status()).isEqualTo(AppendStatus.PUT_OK);
                bodies.add(body);
            }
            assertThat(second).doesNotExist();

            await().atMost(Duration.ofSeconds(10)).until(() -> store.nextOffset("Ahead", 0) == bodies.size());
            GetMessageResult read = store.getMessages("Ahead", 0, 0, bodies.size(), 1 << 24,
                MessageFilterPredicate.ALL);
            assertThat(read.messages().stream().map(m -> TestMessages.text(StoredMessageView.over(m).body())))
                .containsExactlyElementsOf(bodies);
        }
        assertThat(listNames(commitLog)).as("nothing made ahead is left after close")
            .allMatch(name -> name.matches("\\d{20}"));
    }

    @Test
    void shouldDropFilesMadeAheadWhenOpeningAndNeverServeTheirBytes() throws IOException {
        StoreConfig config = TestMessages.smallConfig(dir).build();
        Path commitLog = dir.resolve("commitlog");
        try (MessageStore store = MessageStore.builder(config).open()) {
            store.append(TestMessages.message("Left", 0, "before"));
        }
        byte[] garbage = new byte[SEGMENT];
        Arrays.fill(garbage, (byte) 0x5A);
        Files.write(commitLog.resolve(MappedSegment.fileName(SEGMENT) + ".zero-filled"), garbage);
        Files.write(commitLog.resolve(MappedSegment.fileName(SEGMENT) + ".zero-filling"), garbage);

        List<String> bodies = new ArrayList<>(List.of("before"));
        try (MessageStore store = MessageStore.builder(config).open()) {
            assertThat(listNames(commitLog)).containsExactly(MappedSegment.fileName(0));
            for (int i = 0; store.commitLogEndOffset() <= SEGMENT; i++) {
                String body = "after" + i + "-" + "y".repeat(900);
                store.append(TestMessages.message("Left", 0, body));
                bodies.add(body);
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> store.nextOffset("Left", 0) == bodies.size());
            GetMessageResult read = store.getMessages("Left", 0, 0, bodies.size(), 1 << 24,
                MessageFilterPredicate.ALL);
            assertThat(read.messages().stream().map(m -> TestMessages.text(StoredMessageView.over(m).body())))
                .containsExactlyElementsOf(bodies);
        }
    }

    private static List<String> listNames(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
