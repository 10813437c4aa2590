package dev.ferry.strategies.offset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.api.MessageModel;
import dev.ferry.api.MessageQueue;
import dev.ferry.format.AtomicFile;
import dev.ferry.spi.OffsetStore;
import dev.ferry.spi.OffsetStoreContext;
import dev.ferry.spi.PluginConfig;
import dev.ferry.spi.ReadOffsetType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalFileOffsetStoreTest {

    private static final MessageQueue Q0 = new MessageQueue("T", "broker-a", 0);
    private static final MessageQueue Q1 = new MessageQueue("T", "broker-b", 1);

    @TempDir
    Path directory;

    /** System.Logger goes to java.util.logging by default; this collects the file's warnings. */
    private final Logger julLogger = Logger.getLogger(AtomicFile.class.getName());
    private final List<String> warnings = new ArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                warnings.add(record.getMessage() + " " + List.of(record.getParameters() == null
                        ? new Object[0] : record.getParameters()));
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void captureWarnings() {
        julLogger.addHandler(handler);
    }

    @AfterEach
    void releaseWarnings() {
        julLogger.removeHandler(handler);
    }

    @Test
    void shouldReloadPersistedOffsetsOnStart() {
        OffsetStore first = newStore();
        first.load();
        first.update(Q0, 12, false);
        first.update(Q1, 34, false);
        first.persistAll(Set.of(Q0, Q1));

        OffsetStore second = newStore();
        second.load();

        assertThat(second.offsets("T")).isEqualTo(Map.of(Q0, 12L, Q1, 34L));
        assertThat(second.read(Q1, ReadOffsetType.READ_FROM_STORE)).isEqualTo(34L);
        assertThat(offsetFile()).isRegularFile();
        assertThat(Files.exists(offsetFile().resolveSibling("offsets.json.tmp"))).isFalse();
        assertThat(warnings).isEmpty();
    }

    @Test
    void shouldKeepThePreviousFileAsBackup() throws IOException {
        persistTwice();

        String backup = Files.readString(backupFile());
        assertThat(backup).contains("\"offset\" : 1");
        assertThat(Files.readString(offsetFile())).contains("\"offset\" : 2");
    }

    @Test
    void shouldFallBackToTheBackupWhenTheFileIsCorrupt() throws IOException {
        persistTwice();
        Files.writeString(offsetFile(), "{\"group\":\"g\",\"offsets\":[{\"topic\":", StandardCharsets.UTF_8);

        OffsetStore store = newStore();
        store.load();

        assertThat(store.read(Q0, ReadOffsetType.READ_FROM_MEMORY)).isEqualTo(1L);
        assertThat(warnings).singleElement().asString().contains("offsets.json").contains("cannot be read");
    }

    @Test
    void shouldRefuseToStartNamingBothFilesWhenFileAndBackupAreCorrupt() throws IOException {
        persistTwice();
        Files.writeString(offsetFile(), "not json");
        Files.writeString(backupFile(), "{\"group\":\"g\",\"offsets\":[{\"topic\":\"T\",\"brokerName\":\"b\","
                + "\"queueId\":0,\"offset\":-4}]}");

        OffsetStore store = newStore();

        assertThatThrownBy(store::load).isInstanceOf(AtomicFile.UnreadableFileException.class)
                .hasMessageContaining(offsetFile().toString()).hasMessageContaining("offsets.json.bak")
                .hasMessageContaining("negative offset -4");
        assertThat(Files.readString(offsetFile())).as("left for repair").isEqualTo("not json");
    }

    @Test
    void shouldNotOverwriteAGoodBackupWithACorruptFile() throws IOException {
        persistTwice();
        Files.writeString(offsetFile(), "not json");
        OffsetStore store = newStore();
        store.load();

        store.update(Q0, 3, false);
        store.persist(Q0);

        assertThat(Files.readString(backupFile())).contains("\"offset\" : 1");
        assertThat(Files.readString(offsetFile())).contains("\"offset\" : 3");
    }

    private void persistTwice() {
        OffsetStore store = newStore();
        store.load();
        store.update(Q0, 1, false);
        store.persist(Q0);
        store.update(Q0, 2, false);
        store.persist(Q0);
    }

    private OffsetStore newStore() {
        return new LocalFileOffsetStoreProvider().create(new OffsetStoreContext("g", "10.0.0.1@i", MessageModel.BROADCASTING,
                directory, new RecordingBrokers()), PluginConfig.empty());
    }

    private Path offsetFile() {
        return directory.resolve("10.0.0.1@i").resolve("g").resolve("offsets.json");
    }

    private Path backupFile() {
        return offsetFile().resolveSibling("offsets.json.bak");
    }
}
