package dev.ferry.server.namesrv;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class KvConfigTableTest {

    @Test
    void keepsValuesByNamespaceAndForgetsEmptyNamespaces() {
        KvConfigTable kv = new KvConfigTable();
        assertThat(kv.put("ORDER_TOPIC_CONFIG", "T", "broker-a:4")).isEmpty();
        assertThat(kv.get("ORDER_TOPIC_CONFIG", "T")).contains("broker-a:4");
        assertThat(kv.namespace("ORDER_TOPIC_CONFIG")).hasValueSatisfying(t -> assertThat(t).containsEntry("T",
                "broker-a:4"));
        kv.delete("ORDER_TOPIC_CONFIG", "T");
        assertThat(kv.get("ORDER_TOPIC_CONFIG", "T")).isEmpty();
        assertThat(kv.namespace("ORDER_TOPIC_CONFIG")).isEmpty();
    }

    @Test
    void refusesWhatWouldGrowItBeyondItsBounds() {
        KvConfigTable kv = new KvConfigTable();
        assertThat(kv.put("ns", "k", "v".repeat(KvConfigTable.MAX_VALUE_LENGTH + 1))).isPresent();
        assertThat(kv.put("n".repeat(KvConfigTable.MAX_NAME_LENGTH + 1), "k", "v")).isPresent();
        for (int i = 0; i < KvConfigTable.MAX_NAMESPACES; i++) {
            assertThat(kv.put("ns" + i, "k", "v")).isEmpty();
        }
        assertThat(kv.put("one-too-many", "k", "v")).hasValueSatisfying(p -> assertThat(p).contains("namespaces"));
        assertThat(kv.put("ns0", "k", "replaced")).isEmpty(); // an existing key can always change
        for (int i = 1; i < KvConfigTable.MAX_KEYS_PER_NAMESPACE; i++) {
            assertThat(kv.put("ns0", "k" + i, "v")).isEmpty();
        }
        assertThat(kv.put("ns0", "overflow", "v")).hasValueSatisfying(p -> assertThat(p).contains("keys"));
    }
}
