package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.format.StoredMessageView;
import dev.ferry.store.GetMessageResult;
import dev.ferry.store.MessageFilterPredicate;
import dev.ferry.store.MessageStore;
import dev.ferry.store.MessageToStore;
import dev.ferry.store.StoreConfig;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoredFilterableMessageTest {
    private static final InetSocketAddress HOST = new InetSocketAddress("127.0.0.1", 10911);

    @TempDir
    Path dir;

    @Test
    void shouldShowFiltersTheStoredTagsAndPropertiesWhateverTheyAskFirst() {
        try (MessageStore store = MessageStore.builder(StoreConfig.builder(dir).commitLogSegmentSize(1024 * 1024)
                .build()).open()) {
            store.append(message(Map.of("TAGS", "TagA", "region", "eu")));
            store.append(message(Map.of("region", "us")));
            await().atMost(Duration.ofSeconds(5)).until(() -> store.nextOffset("Filtered", 0) == 2);
            GetMessageResult read = store.getMessages("Filtered", 0, 0, 2, 1 << 20, MessageFilterPredicate.ALL);
            StoredMessageView tagged = StoredMessageView.over(read.messages().get(0));
            StoredMessageView untagged = StoredMessageView.over(read.messages().get(1));

            StoredFilterableMessage tagsFirst = new StoredFilterableMessage(tagged);
            assertThat(tagsFirst.tags()).contains("TagA");
            assertThat(tagsFirst.properties()).containsEntry("TAGS", "TagA").containsEntry("region", "eu");

            StoredFilterableMessage propertiesFirst = new StoredFilterableMessage(tagged);
            assertThat(propertiesFirst.properties()).containsEntry("region", "eu");
            assertThat(propertiesFirst.tags()).contains("TagA");

            StoredFilterableMessage noTags = new StoredFilterableMessage(untagged);
            assertThat(noTags.tags()).isEmpty();
            assertThat(noTags.properties()).containsEntry("region", "us").doesNotContainKey("TAGS");
        }
    }

    private static MessageToStore message(Map<String, String> properties) {
        return MessageToStore.builder("Filtered", 0, "body".getBytes(StandardCharsets.UTF_8))
                .properties(properties).storeHost(HOST).bornHost(HOST).build();
    }
}
