package dev.ferry.server.namesrv;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.remoting.protocol.ResponseCode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KvConfigTableTest {
    @TempDir
    Path dir;

    @Test
    void keepsValuesByNamespaceAndForgetsEmptyNamespaces() {
        KvConfigTable kv = new KvConfigTable(1 << 20);
        assertThat(kv.put("ORDER_TOPIC_CONFIG", "T", "broker-a:4")).isEmpty();
        assertThat(kv.get("ORDER_TOPIC_CONFIG", "T")).contains("broker-a:4");
        assertThat(kv.namespace("ORDER_TOPIC_CONFIG")).hasValueSatisfying(t -> assertThat(t).containsEntry("T",
                "broker-a:4"));
        assertThat(kv.delete("ORDER_TOPIC_CONFIG", "T")).isEmpty();
        assertThat(kv.get("ORDER_TOPIC_CONFIG", "T")).isEmpty();
        assertThat(kv.namespace("ORDER_TOPIC_CONFIG")).isEmpty();
        assertThat(kv.bytes()).isZero();
    }

    @Test
    void shouldRefuseOverlongNamesAndValuesAsInvalidParameter() {
        KvConfigTable kv = new KvConfigTable(1 << 20);
        assertThat(kv.put("ns", "k", "v".repeat(KvConfigTable.MAX_VALUE_LENGTH + 1)))
                .hasValueSatisfying(r -> assertThat(r.code()).isEqualTo(ResponseCode.INVALID_PARAMETER));
        assertThat(kv.put("n".repeat(KvConfigTable.MAX_NAME_LENGTH + 1), "k", "v"))
                .hasValueSatisfying(r -> assertThat(r.code()).isEqualTo(ResponseCode.INVALID_PARAMETER));
    }

    @Test
    void shouldRefuseWithSystemErrorAPutThatWouldTakeItBeyondItsBytesWhateverTheNumberOfKeys() {
        long budget = 512 * 1024;
        KvConfigTable kv = new KvConfigTable(budget);
        String value = "v".repeat(KvConfigTable.MAX_VALUE_LENGTH);
        int stored = 0;
        Optional<KvConfigTable.Refusal> refusal = Optional.empty();
        while (refusal.isEmpty()) {
            refusal = kv.put("flood", "key-" + stored, value);
            stored += refusal.isEmpty() ? 1 : 0;
        }

        assertThat(stored).as("64 KiB values: each costs 128 KiB of heap").isEqualTo(3);
        assertThat(kv.bytes()).isLessThanOrEqualTo(budget);
        assertThat(refusal.get().code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(refusal.get().remark()).contains("nameServerMaxKvBytes");
        assertThat(kv.put("flood", "key-0", "short")).as("a change that frees bytes is taken").isEmpty();
        assertThat(kv.put("small", "k", "v")).as("and then a new entry fits").isEmpty();
    }

    @Test
    void shouldPersistEveryChangeInApachesLayoutAndReadItBackAtStart() throws IOException {
        Path file = dir.resolve("namesrv").resolve("kvConfig.json");
        KvConfigTable kv = new KvConfigTable(1 << 20, Optional.of(file));
        kv.put("ORDER_TOPIC_CONFIG", "T", "broker-a:4");
        kv.put("ORDER_TOPIC_CONFIG", "gone", "x");
        kv.delete("ORDER_TOPIC_CONFIG", "gone");

        String written = Files.readString(file);
        KvConfigTable restarted = new KvConfigTable(1 << 20, Optional.of(file));

        assertThat(written).contains("\"configTable\"").contains("\"ORDER_TOPIC_CONFIG\"").doesNotContain("gone");
        assertThat(restarted.get("ORDER_TOPIC_CONFIG", "T")).contains("broker-a:4");
        assertThat(restarted.bytes()).isEqualTo(kv.bytes());
    }

    @Test
    void shouldReadTheFileApachesNameServerWrites() throws IOException {
        Path file = dir.resolve("kvConfig.json");
        Files.writeString(file, "{\n\t\"configTable\":{\n\t\t\"ORDER_TOPIC_CONFIG\":{\n\t\t\t\"TopicOrder\":"
                + "\"broker-a:8;broker-b:8\"\n\t\t}\n\t}\n}", StandardCharsets.UTF_8);

        KvConfigTable kv = new KvConfigTable(1 << 20, Optional.of(file));

        assertThat(kv.get("ORDER_TOPIC_CONFIG", "TopicOrder")).contains("broker-a:8;broker-b:8");
    }

    @Test
    void shouldLeaveTheTableAsItWasAndSayWhyWhenItsFileCannotBeWritten() throws IOException {
        Path parent = dir.resolve("namesrv");
        KvConfigTable kv = new KvConfigTable(1 << 20, Optional.of(parent.resolve("kvConfig.json")));
        kv.put("ns", "kept", "1");
        long before = kv.bytes();
        try (var files = Files.list(parent)) {
            for (Path written : files.toList()) {
                Files.delete(written);
            }
        }
        Files.delete(parent);
        Files.writeString(parent, "a file where the directory was");

        Optional<KvConfigTable.Refusal> refusal = kv.put("ns", "new", "2");

        assertThat(refusal).hasValueSatisfying(r -> assertThat(r.code()).isEqualTo(ResponseCode.SYSTEM_ERROR));
        assertThat(kv.get("ns", "new")).isEmpty();
        assertThat(kv.bytes()).isEqualTo(before);
    }
}
