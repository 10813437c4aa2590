package dev.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.server.broker.BrokerRole;
import dev.ferry.store.FlushMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Apache RocketMQ 5.3.3's broker keys as the key table reads them: honoured, ignored with why, or refused. */
class ApacheBrokerKeysTest {
    @TempDir
    Path dir;

    private FerryServerProperties.Reading read(String... keysAndValues) {
        Properties properties = new Properties();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            properties.setProperty(keysAndValues[i], keysAndValues[i + 1]);
        }
        return FerryServerProperties.read(FerryServerConfig.builder(dir).role(FerryServerConfig.Role.BROKER)
                .nameServers(java.util.List.of("127.0.0.1:9876")), properties);
    }

    private FerryServerConfig config(String... keysAndValues) {
        return read(keysAndValues).builder().build();
    }

    @Test
    void shouldHonourApachesNamesOfFerrysKeys() {
        FerryServerConfig config = config("brokerClusterName", "DefaultCluster", "brokerName", "broker-a",
                "brokerId", "0", "brokerRole", "SYNC_MASTER", "flushDiskType", "SYNC_FLUSH",
                "mappedFileSizeCommitLog", "1048576", "autoCreateTopicEnable", "false",
                "messageDelayLevel", "1s 5s 10s", "brokerIP1", "127.0.0.2", "enablePropertyFilter", "false",
                "sendThreadPoolQueueCapacity", "123", "pullThreadPoolQueueCapacity", "456",
                "maxMsgsNumBatch", "7");
        assertThat(config.broker().clusterName()).isEqualTo("DefaultCluster");
        assertThat(config.broker().brokerRole()).isEqualTo(BrokerRole.SYNC_MASTER);
        assertThat(config.store().flushMode()).isEqualTo(FlushMode.SYNC_FLUSH);
        assertThat(config.store().commitLogSegmentSize()).isEqualTo(1 << 20);
        assertThat(config.broker().autoCreateTopics()).isFalse();
        assertThat(config.broker().delayLevels().maxLevel()).isEqualTo(3);
        assertThat(config.broker().host()).isEqualTo("127.0.0.2");
        assertThat(config.broker().sql92Enabled()).isFalse();
        assertThat(config.broker().limits().sendQueueCapacity()).isEqualTo(123);
        assertThat(config.broker().limits().pullQueueCapacity()).isEqualTo(456);
        assertThat(config.broker().limits().maxQueryResults()).isEqualTo(7);
    }

    @Test
    void shouldConvertApachesUnitsWhereTheyDifferFromFerrys() {
        FerryServerConfig config = config("fileReservedTime", "48", "deleteWhen", "04;05",
                "diskMaxUsedSpaceRatio", "80",
                "diskSpaceWarningLevelRatio", "92", "cleanResourceInterval", "5000", "flushIntervalCommitLog", "250",
                "syncFlushTimeout", "3000", "mappedFileSizeConsumeQueue", "6000000", "maxHashSlotNum", "1000",
                "maxIndexNum", "4000", "maxMessageSize", "8388608", "defaultTopicQueueNums", "8",
                "flushConsumerOffsetInterval", "2000", "channelExpiredTimeout", "60000",
                "transactionTimeOut", "9000", "transactionCheckInterval", "20000",
                "storePathCommitLog", dir.resolve("disk2/commitlog").toString());
        assertThat(config.store().fileRetention()).isEqualTo(Duration.ofHours(48));
        assertThat(config.store().deleteHours()).containsExactlyInAnyOrder(4, 5);
        assertThat(config().store().deleteHours()).as("Ferry's default: any hour").isEmpty();
        assertThat(config.store().diskCleanRatio()).isEqualTo(0.80);
        assertThat(config.store().diskRejectRatio()).isEqualTo(0.92);
        assertThat(config.store().retentionCheckInterval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(config.store().flushInterval()).isEqualTo(Duration.ofMillis(250));
        assertThat(config.store().syncFlushTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(config.store().consumeQueueEntriesPerSegment()).isEqualTo(300_000);
        assertThat(config.store().indexHashSlots()).isEqualTo(1000);
        assertThat(config.store().indexMaxEntries()).isEqualTo(4000);
        assertThat(config.broker().maxMessageSize()).isEqualTo(8 << 20);
        assertThat(config("autoCreateSubscriptionGroup", "false").broker().autoCreateSubscriptionGroup()).isFalse();
        assertThat(config().broker().autoCreateSubscriptionGroup()).as("Apache's default").isTrue();
        assertThat(config.store().maxMessageBodySize()).isEqualTo(8 << 20);
        assertThat(config.broker().defaultTopicQueues()).isEqualTo(8);
        assertThat(config.broker().offsetPersistInterval()).isEqualTo(Duration.ofSeconds(2));
        assertThat(config.broker().channelExpiry()).isEqualTo(Duration.ofMinutes(1));
        assertThat(config.broker().transactionTimeout()).isEqualTo(Duration.ofSeconds(9));
        assertThat(config.broker().transactionCheckInterval()).isEqualTo(Duration.ofSeconds(20));
        assertThat(config.store().commitLogDir()).isEqualTo(dir.resolve("disk2/commitlog"));
        assertThat(config("transactionCheckInterval", "20s").broker().transactionCheckInterval())
                .as("Ferry's form, with a unit").isEqualTo(Duration.ofSeconds(20));
        assertThat(config().store().commitLogDir()).isEqualTo(dir.resolve("store").resolve("commitlog"));
    }

    @Test
    void shouldListEveryIgnoredKeyWithWhyInOneWarningLine() {
        FerryServerProperties.Reading reading = read("deleteWhen", "04", "diskSpaceCleanForciblyRatio", "85",
                "timerWheelEnable", "true", "timerRollWindowSlot", "172800",
                "timerMaxDelaySec", "259200", "sendMessageThreadPoolNums", "16", "osPageCacheBusyTimeOutMills",
                "1000", "brokerIP1", "127.0.0.1", "brokerIP2", "10.0.0.9", "slaveReadEnable", "true");
        assertThat(reading.ignored()).containsOnlyKeys("diskSpaceCleanForciblyRatio", "timerRollWindowSlot",
                "sendMessageThreadPoolNums", "osPageCacheBusyTimeOutMills", "brokerIP2", "slaveReadEnable");
        assertThat(reading.ignored().get("diskSpaceCleanForciblyRatio")).contains("older than fileReservedTime");
        assertThat(reading.ignored().get("timerRollWindowSlot")).contains("timer store sizes");
        assertThat(reading.warning()).hasValueSatisfying(line -> assertThat(line)
                .startsWith("Ferry ignores these Apache broker keys: ").doesNotContain("\n")
                .contains("diskSpaceCleanForciblyRatio (Ferry deletes", "brokerIP2 (a master serves"));
    }

    @Test
    void shouldStaySilentWhenAnApacheKeyAsksForWhatFerryDoes() {
        FerryServerProperties.Reading reading = read("aclEnable", "false", "timerWheelEnable", "false",
                "autoCreateSubscriptionGroup", "true", "enableDLegerCommitLog", "false", "brokerPermission", "6",
                "longPollingEnable", "true", "brokerIP1", "127.0.0.1", "brokerIP2", "127.0.0.1");
        assertThat(reading.ignored()).isEmpty();
        assertThat(reading.warning()).isEmpty();
    }

    @Test
    void shouldRefuseWhatWouldWeakenDurabilityOrSecurityIfIgnored() {
        assertThatThrownBy(() -> read("aclEnable", "true")).hasMessageContaining("aclEnable = true: refused")
                .hasMessageContaining("ACL 1.0 (plain_acl.yml) is not implemented")
                .hasMessageContaining("authenticationEnabled");
        assertThatThrownBy(() -> read("flushDiskType", "FAST_FLUSH"))
                .hasMessageContaining("flushDiskType (Ferry's flushMode)")
                .hasMessageContaining("expected ASYNC_FLUSH or SYNC_FLUSH");
        assertThatThrownBy(() -> read("brokerRole", "LEADER")).hasMessageContaining("brokerRole = LEADER");
        assertThatThrownBy(() -> read("enableDLegerCommitLog", "true")).hasMessageContaining("no DLedger");
        assertThatThrownBy(() -> read("enableControllerMode", "true")).hasMessageContaining("no controller");
        assertThatThrownBy(() -> read("brokerPermission", "4")).hasMessageContaining("always reads and writes");
        assertThatThrownBy(() -> read("rejectTransactionMessage", "true"))
                .hasMessageContaining("rejectTransactionMessage = true: refused");
    }

    @Test
    void shouldRefuseBadApacheValuesAndTwoNamesOfOneKeyThatDisagree() {
        assertThatThrownBy(() -> read("diskMaxUsedSpaceRatio", "99"))
                .hasMessageContaining("diskMaxUsedSpaceRatio = 99: must be within 10..95");
        assertThatThrownBy(() -> read("fileReservedTime", "two days"))
                .hasMessageContaining("fileReservedTime = two days: not an integer");
        assertThatThrownBy(() -> read("deleteWhen", "25"))
                .hasMessageContaining("deleteWhen = 25: must be within 0..23");
        assertThatThrownBy(() -> read("deleteWhen", ";")).hasMessageContaining("names no hour");
        assertThatThrownBy(() -> read("mappedFileSizeConsumeQueue", "6000001"))
                .hasMessageContaining("must be a multiple of 20");
        assertThatThrownBy(() -> read("flushDiskType", "SYNC_FLUSH", "flushMode", "ASYNC_FLUSH"))
                .hasMessageContaining("set one thing two ways");
        assertThat(config("flushDiskType", "SYNC_FLUSH", "flushMode", "SYNC_FLUSH").store().flushMode())
                .as("both names, one value").isEqualTo(FlushMode.SYNC_FLUSH);
        assertThatThrownBy(() -> read("noSuchKey", "1")).hasMessageContaining("unknown key 'noSuchKey'")
                .hasMessageContaining("flushMode").hasMessageContaining("the Apache broker keys docs/operations.md")
                .hasMessageNotContaining("sendMessageThreadPoolNums");
        assertThat(FerryServerProperties.keyNames()).contains("flushMode", "flushDiskType", "storePathRootDir",
                "sendMessageThreadPoolNums", "deleteWhen");
    }

    @Test
    void shouldTakeTheStoreDirectoryUnderApachesNameAndRefuseAnother() {
        Properties properties = new Properties();
        properties.setProperty("storePathRootDir", dir.resolve("apache").toString());
        properties.setProperty("brokerName", "broker-a");
        assertThat(FerryServerProperties.removeStoreDir(properties)).contains(dir.resolve("apache"));
        assertThat(properties.stringPropertyNames()).containsExactly("brokerName");
        Properties both = new Properties();
        both.setProperty("storeDir", "/a");
        both.setProperty("storePathRootDir", "/b");
        assertThatThrownBy(() -> FerryServerProperties.removeStoreDir(both)).hasMessageContaining("set one");

        assertThat(config("storePathRootDir", dir.toString()).storeDir()).isEqualTo(dir);
        assertThatThrownBy(() -> read("storePathRootDir", dir.resolve("elsewhere").toString()))
                .hasMessageContaining("this broker's store directory is " + dir);
        assertThat(FerryServerProperties.canonicalName("flushDiskType")).isEqualTo("flushMode");
        assertThat(FerryServerProperties.canonicalName("storePathRootDir")).isEqualTo("storeDir");
    }

    @Test
    void shouldAcceptHaListenPortOnASlaveWithoutOpeningIt() {
        FerryServerConfig slave = config("brokerRole", "SLAVE", "brokerId", "1", "haListenPort", "10912");
        assertThat(slave.broker().haPort()).as("kept for a restart as master").isEqualTo(10912);
        assertThat(slave.broker().haPort(10911)).as("a slave opens no HA port").isEqualTo(-1);
        assertThat(config("brokerRole", "ASYNC_MASTER", "haListenPort", "10912").broker().haPort(10911))
                .isEqualTo(10912);
    }

    @Test
    void shouldListenOnBindAddressAndReplicateFromAFixedHaMasterAddress() {
        FerryServerConfig master = config("brokerIP1", "10.0.0.5", "bindAddress", "0.0.0.0");
        assertThat(master.broker().host()).as("advertised").isEqualTo("10.0.0.5");
        assertThat(master.broker().listenHost()).isEqualTo("0.0.0.0");
        assertThat(config("brokerIP1", "10.0.0.5").broker().listenHost()).isEqualTo("10.0.0.5");

        FerryServerConfig slave = config("brokerRole", "SLAVE", "brokerId", "1", "haMasterAddress",
                "10.0.0.5:10912");
        assertThat(slave.broker().haMasterAddress()).contains("10.0.0.5:10912");
        assertThatThrownBy(() -> config("brokerRole", "SLAVE", "brokerId", "1", "haMasterAddress", "10.0.0.5"))
                .hasMessageContaining("haMasterAddress").hasMessageContaining("host:port");
    }

    @Test
    void shouldTakeApachesInSyncReplicasWhereFerrysSyncMasterKeepsItsPromiseAndRefuseMore() {
        assertThat(read("brokerRole", "SYNC_MASTER", "inSyncReplicas", "2").ignored()).doesNotContainKey(
                "inSyncReplicas");
        assertThat(read("brokerRole", "SYNC_MASTER", "inSyncReplicas", "1").ignored().get("inSyncReplicas"))
                .contains("waits for its slave all the same");
        assertThatThrownBy(() -> config("brokerRole", "SYNC_MASTER", "inSyncReplicas", "3"))
                .hasMessageContaining("inSyncReplicas = 3: refused").hasMessageContaining("not 2");
        assertThat(read("minInSyncReplicas", "1", "totalReplicas", "1", "enableAutoInSyncReplicas", "false",
                "allAckInSyncStateSet", "false").ignored()).isEmpty();
        assertThat(read("minInSyncReplicas", "2").ignored()).containsKey("minInSyncReplicas");
    }

    /** Apache's broker.conf may ask its timer store to retry until success: what Ferry's always does. */
    @Test
    void shouldTakeApachesTimerRetryKeysAndWarnWhereFerrysTimerStoreDoesOtherwise() {
        assertThat(read("timerEnableRetryUntilSuccess", "true", "timerSkipUnknownError", "false").ignored()).isEmpty();
        assertThat(read("timerEnableRetryUntilSuccess", "false").ignored().get("timerEnableRetryUntilSuccess"))
                .contains("never drops one");
        assertThat(read("timerSkipUnknownError", "true").ignored()).containsKey("timerSkipUnknownError");
    }
}
