package dev.ferry.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFileTest {
    @TempDir
    Path dir;

    private static String strict(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        if (!text.startsWith("v")) {
            throw new IllegalArgumentException("not a version: " + text);
        }
        return text;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void shouldReadNothingWhenNothingWasWritten() {
        assertThat(new AtomicFile(dir.resolve("config/topics.json")).read(AtomicFileTest::strict)).isEmpty();
    }

    @Test
    void shouldReadBackTheLastWriteAndKeepThePreviousAsBackup() throws IOException {
        AtomicFile file = new AtomicFile(dir.resolve("config/topics.json"));
        file.write(bytes("v1"));
        file.write(bytes("v2"));

        assertThat(file.read(AtomicFileTest::strict)).contains("v2");
        assertThat(Files.readString(file.backupPath())).isEqualTo("v1");
        assertThat(dir.resolve("config/topics.json.tmp")).doesNotExist();
    }

    @Test
    void shouldNeverLetAReaderFindTheFileMissingWhileItIsReplaced() throws Exception {
        // A reader that polls the file (an application server's configuration monitor, a tool) must see the old or
        // the new version, never a gap it would take for a deletion.
        AtomicFile file = new AtomicFile(dir.resolve("server.xml"));
        file.write(bytes("v0"));
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicInteger missing = new AtomicInteger();
        AtomicInteger looks = new AtomicInteger();
        Thread reader = new Thread(() -> {
            while (writing.get()) {
                looks.incrementAndGet();
                if (!Files.exists(file.path())) {
                    missing.incrementAndGet();
                }
            }
        });
        reader.start();
        try {
            for (int i = 1; i <= 2_000; i++) {
                file.write(bytes("v" + i));
            }
        } finally {
            writing.set(false);
            reader.join();
        }
        assertThat(looks.get()).as("the reader looked while the writes ran").isPositive();
        assertThat(missing.get()).as("times the reader found no file").isZero();
        assertThat(file.read(AtomicFileTest::strict)).contains("v2000");
        assertThat(Files.readString(file.backupPath())).isEqualTo("v1999");
    }

    @Test
    void shouldReadTheBackupWhenTheFileIsMissingAsACrashBetweenTheRenamesLeavesIt() throws IOException {
        AtomicFile file = new AtomicFile(dir.resolve("offsets.json"));
        file.write(bytes("v1"));
        file.write(bytes("v2"));
        Files.delete(file.path());

        assertThat(file.read(AtomicFileTest::strict)).contains("v1");
    }

    @Test
    void shouldReadTheBackupWhenTheFileIsCorruptAndNeverPutTheCorruptFileInItsPlace() throws IOException {
        AtomicFile file = new AtomicFile(dir.resolve("offsets.json"));
        file.write(bytes("v1"));
        file.write(bytes("v2"));
        Files.writeString(file.path(), "garbage");

        Optional<String> read = file.read(AtomicFileTest::strict);
        file.write(bytes("v3"));

        assertThat(read).contains("v1");
        assertThat(Files.readString(file.backupPath())).isEqualTo("v1");
        assertThat(Files.readString(dir.resolve("offsets.json.corrupt"))).isEqualTo("garbage");
        assertThat(file.read(AtomicFileTest::strict)).contains("v3");
    }

    @Test
    void shouldRefuseToReadWhenNeitherTheFileNorItsBackupDecodesNamingBoth() throws IOException {
        AtomicFile file = new AtomicFile(dir.resolve("offsets.json"));
        Files.writeString(file.path(), "garbage");
        Files.writeString(file.backupPath(), "rubbish");

        assertThatThrownBy(() -> file.read(AtomicFileTest::strict))
                .isInstanceOf(AtomicFile.UnreadableFileException.class)
                .hasMessageContaining(file.path().toString())
                .hasMessageContaining(file.backupPath().toString())
                .hasMessageContaining("not a version: garbage");
    }

    @Test
    void shouldRefuseToReadACorruptFileWithoutBackup() throws IOException {
        AtomicFile file = new AtomicFile(dir.resolve("offsets.json"));
        Files.writeString(file.path(), "garbage");

        assertThatThrownBy(() -> file.read(AtomicFileTest::strict))
                .isInstanceOf(AtomicFile.UnreadableFileException.class)
                .hasMessageContaining("missing");
    }

    @Test
    void shouldLeaveAStaleTemporaryFileOfACrashedWriteUnread() throws IOException {
        AtomicFile file = new AtomicFile(dir.resolve("offsets.json"));
        file.write(bytes("v1"));
        Files.writeString(dir.resolve("offsets.json.tmp"), "v9-torn");

        assertThat(file.read(AtomicFileTest::strict)).contains("v1");
        file.write(bytes("v2"));
        assertThat(file.read(AtomicFileTest::strict)).contains("v2");
    }
}
