package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.format.AtomicFile;
import dev.ferry.format.Clock;
import dev.ferry.format.ManualClock;
import dev.ferry.format.SystemTopics;
import dev.ferry.remoting.protocol.body.TopicConfig;
import dev.ferry.server.FerryServer;
import dev.ferry.server.FerryServerConfig;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker reads back whatever it wrote, however large the validators let its tables grow, and never silently
 * replaces a file it cannot read.
 */
@Tag("integration")
class ConfigFilesTest {
    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(1_700_000_000_000L);

    private static String name(char c, int i, int length) {
        String suffix = Integer.toString(i);
        return String.valueOf(c).repeat(length - suffix.length()) + suffix;
    }

    @Test
    void shouldReadBackTheLargestTablesTheDefaultLimitsAllowAfterARestart() {
        BrokerLimits limits = BrokerLimits.defaults();
        Path config = dir.resolve("config");
        TopicConfigTable topics = new TopicConfigTable(config, clock, limits.maxTopics());
        SubscriptionGroupTable groups = new SubscriptionGroupTable(config, clock, limits.maxSubscriptionGroups(), 16,
                List.of());
        ConsumerOffsetTable offsets = new ConsumerOffsetTable(config, limits.maxConsumerOffsets());

        List<String> groupNames = new ArrayList<>();
        for (int i = 0; i < limits.maxSubscriptionGroups(); i++) {
            String group = name('g', i, 255); // the longest group, whose retry topic has 262 characters
            assertThat(groups.findOrCreate(group)).isPresent();
            groupNames.add(group);
        }
        List<String> topicNames = new ArrayList<>();
        for (int i = 0; topics.size() < limits.maxTopics(); i++) {
            String topic = i % 2 == 0 ? SystemTopics.retryTopic(groupNames.get(i)) : name('t', i, 127);
            assertThat(topics.putIfAbsent(new TopicConfig(topic, 8, 8, 6, null, 0, false, Map.of()))).isPresent();
            topicNames.add(topic);
        }
        assertThat(topics.putIfAbsent(TopicConfig.of("OneTooMany", 1))).isEmpty();
        Map<String, Long> committed = new HashMap<>();
        int queues = 8;
        outer:
        for (String group : groupNames) {
            for (String topic : topicNames) {
                for (int queueId = 0; queueId < queues; queueId++) {
                    if (offsets.size() == limits.maxConsumerOffsets()) {
                        break outer;
                    }
                    long offset = committed.size() * 7L;
                    offsets.commit(groups, topics, group, topic, queueId, offset);
                    committed.put(topic + "@" + group + "#" + queueId, offset);
                }
            }
        }
        assertThat(offsets.size()).isEqualTo(limits.maxConsumerOffsets());
        topics.persist();
        groups.persist();
        offsets.persist();

        TopicConfigTable topicsAgain = new TopicConfigTable(config, clock, limits.maxTopics());
        SubscriptionGroupTable groupsAgain = new SubscriptionGroupTable(config, clock,
                limits.maxSubscriptionGroups(), 16, List.of());
        ConsumerOffsetTable offsetsAgain = new ConsumerOffsetTable(config, limits.maxConsumerOffsets());

        assertThat(topicsAgain.all()).isEqualTo(topics.all());
        assertThat(groupsAgain.names()).isEqualTo(groups.names());
        assertThat(offsetsAgain.size()).isEqualTo(committed.size());
        committed.forEach((key, offset) -> {
            String topic = key.substring(0, key.indexOf('@'));
            String group = key.substring(key.indexOf('@') + 1, key.indexOf('#'));
            int queueId = Integer.parseInt(key.substring(key.indexOf('#') + 1));
            assertThat(offsetsAgain.query(group, topic, queueId)).isEqualTo(OptionalLong.of(offset));
        });
    }

    @Test
    void shouldStartFromTheBackupWhenAFileIsDamagedAndRefuseToStartNamingBothWhenTheBackupIsToo() throws Exception {
        FerryServerConfig config = FerryServerConfig.builder(dir).namesrvPort(0).brokerPort(0)
                .commitLogSegmentSize(1 << 20).build();
        Path topicsFile = dir.resolve("config").resolve("topics.json");
        try (FerryServer server = server(config)) {
            assertThat(server.broker().stats().topics()).isNotEmpty();
        }
        TopicConfigTable table = new TopicConfigTable(dir.resolve("config"), clock, 100);
        table.putIfAbsent(TopicConfig.of("KeptInTheBackup", 2));
        table.persist();
        table.putIfAbsent(TopicConfig.of("KeptInTheFile", 2));
        table.persist(); // the previous version goes to .bak

        Files.writeString(topicsFile, "{\"topicConfigTable\": {\"half-written");
        try (FerryServer server = server(config)) {
            assertThat(server.broker().stats().topics()).extracting(t -> t.topic()).contains("KeptInTheBackup");
        }

        Files.writeString(topicsFile, "{\"topicConfigTable\": {\"half-written");
        Files.writeString(topicsFile.resolveSibling("topics.json.bak"), "also damaged");
        assertThatThrownBy(() -> server(config)).isInstanceOf(AtomicFile.UnreadableFileException.class)
                .hasMessageContaining(topicsFile.toString()).hasMessageContaining("topics.json.bak");
        assertThat(Files.readString(topicsFile)).as("left as it was").contains("half-written");
    }

    @Test
    void shouldTakeBackATopicWhoseQueuesTheStoreHoldsButTheFileLost() {
        FerryServerConfig config = FerryServerConfig.builder(dir).namesrvPort(0).brokerPort(0)
                .commitLogSegmentSize(1 << 20).build();
        try (FerryServer server = server(config)) {
            // stored without its topic being created, as after a crash that beat the topic table's write
            assertThat(server.broker().store().append(dev.ferry.store.MessageToStore.builder("LostTopic", 2,
                    new byte[] {1}).storeHost(new java.net.InetSocketAddress("127.0.0.1", 1)).build()).isStored())
                    .isTrue();
            // a half message too: a transaction manager's recovery must be able to read the half topic after a crash
            assertThat(server.broker().store().append(dev.ferry.store.MessageToStore.builder(
                    SystemTopics.TRANSACTION_HALF_TOPIC, 0, new byte[] {1})
                    .storeHost(new java.net.InetSocketAddress("127.0.0.1", 1)).build()).isStored()).isTrue();
        }
        try (FerryServer server = server(config)) {
            assertThat(server.broker().stats().topics()).extracting(t -> t.topic()).contains("LostTopic");
        }
        TopicConfigTable restored = new TopicConfigTable(dir.resolve("config"), clock, 100);
        assertThat(restored.get("LostTopic")).hasValueSatisfying(topic -> assertThat(topic.readQueueNums())
                .isEqualTo(3));
        assertThat(restored.get(SystemTopics.TRANSACTION_HALF_TOPIC)).hasValueSatisfying(topic ->
                assertThat(topic.readQueueNums()).isEqualTo(1));
        assertThat(restored.get(SystemTopics.TRANSACTION_OP_TOPIC)).as("where decisions will go").isPresent();
    }

    private static FerryServer server(FerryServerConfig config) {
        return new FerryServer(config, Clock.system(), new DefaultThreadFactory("config-files", true));
    }
}
