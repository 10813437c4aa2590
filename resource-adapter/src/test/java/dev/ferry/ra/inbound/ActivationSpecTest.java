package dev.ferry.ra.inbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ferry.api.MessageModel;
import dev.ferry.client.ConsumeFromWhere;
import dev.ferry.client.PushConsumerConfig;
import dev.ferry.format.Clock;
import dev.ferry.format.ManualClock;
import jakarta.resource.spi.InvalidPropertyException;
import java.beans.PropertyDescriptor;
import java.time.Instant;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The activation spec: RocketMQ-flavoured properties, validated all at once. */
class ActivationSpecTest {

    private static FerryActivationSpec minimal() {
        FerryActivationSpec spec = new FerryActivationSpec();
        spec.setTopic("Orders");
        spec.setConsumerGroup("order-mdb");
        return spec;
    }

    @Test
    void shouldDefaultToRocketMqsChoices() throws Exception {
        ActivationConfig config = minimal().toConfig();
        assertThat(config.selectorType()).isEqualTo("TAG");
        assertThat(config.selectorExpression()).isEqualTo("*");
        assertThat(config.messageModel()).isEqualTo(MessageModel.CLUSTERING);
        assertThat(config.consumeMode()).isEqualTo(ConsumeMode.CONCURRENTLY);
        assertThat(config.maxConcurrency()).isEqualTo(20);
        assertThat(config.consumeFromWhere()).isEqualTo(ConsumeFromWhere.LAST_OFFSET);
        assertThat(config.maxReconsumeTimes()).isEqualTo(16);
        assertThat(config.allocateStrategy()).isEqualTo("averagely");
        assertThat(config.offsetStore()).isEmpty();
        assertThat(config.nameServer()).isEmpty();
    }

    @Test
    void shouldTranslateEveryPropertyIntoTheConsumerConfig() throws Exception {
        FerryActivationSpec spec = minimal();
        spec.setSelectorType("sql92");
        spec.setSelectorExpression("amount > 100");
        spec.setMessageModel("broadcasting");
        spec.setConsumeMode("orderly");
        spec.setMaxConcurrency(4);
        spec.setConsumeFromWhere("CONSUME_FROM_TIMESTAMP");
        spec.setConsumeTimestamp("2026-01-31T12:00:00Z");
        spec.setMaxReconsumeTimes(3);
        spec.setAllocateStrategy("consistent-hash");
        spec.setOffsetStore("local-file");
        spec.setNameServer("10.0.0.1:9876;10.0.0.2:9876");
        spec.validate();
        PushConsumerConfig consumer = spec.toConfig().consumerConfig(Clock.system(), false);
        assertThat(consumer.group()).isEqualTo("order-mdb");
        assertThat(consumer.subscriptions()).singleElement().satisfies(s -> {
            assertThat(s.topic()).isEqualTo("Orders");
            assertThat(s.expressionType()).isEqualTo("SQL92");
            assertThat(s.expression()).isEqualTo("amount > 100");
        });
        assertThat(consumer.messageModel()).isEqualTo(MessageModel.BROADCASTING);
        assertThat(consumer.orderly()).isTrue();
        assertThat(consumer.consumeThreads()).isEqualTo(4);
        assertThat(consumer.consumeBatchSize()).isEqualTo(1);
        assertThat(consumer.consumeFromWhere()).isEqualTo(ConsumeFromWhere.TIMESTAMP);
        assertThat(consumer.consumeTimestamp()).isEqualTo(Instant.parse("2026-01-31T12:00:00Z"));
        assertThat(consumer.maxReconsumeTimes()).isEqualTo(3);
        assertThat(consumer.allocateStrategy()).isEqualTo("consistent-hash");
        assertThat(consumer.offsetStore()).contains("local-file");
        assertThat(spec.toConfig().nameServer()).contains("10.0.0.1:9876;10.0.0.2:9876");
    }

    @Test
    void shouldGiveTheOffsetStoreItsDataSourceAndRefuseOneWithoutAStore() throws Exception {
        FerryActivationSpec spec = minimal();
        spec.setOffsetStore("jdbc");
        spec.setOffsetStoreDataSource("jdbc/orders");
        spec.setConsumeMode("ORDERLY");
        PushConsumerConfig consumer = spec.toConfig().consumerConfig(Clock.system(), false);
        assertThat(consumer.offsetStore()).contains("jdbc");
        assertThat(consumer.offsetStoreConfig().string("dataSource")).contains("jdbc/orders");

        FerryActivationSpec withoutStore = minimal();
        withoutStore.setOffsetStoreDataSource("jdbc/orders");
        assertThatThrownBy(withoutStore::validate).isInstanceOf(InvalidPropertyException.class)
                .hasMessageContaining("offsetStoreDataSource").hasMessageContaining("set offsetStore too");
        FerryActivationSpec badName = minimal();
        badName.setOffsetStore("jdbc");
        badName.setOffsetStoreDataSource("jdbc/my orders");
        assertThatThrownBy(badName::validate).isInstanceOf(InvalidPropertyException.class)
                .hasMessageContaining("offsetStoreDataSource").hasMessageContaining("JNDI name");
    }

    @Test
    void shouldReadRocketMqTimestampsAndDefaultToHalfAnHourAgo() throws Exception {
        FerryActivationSpec spec = minimal();
        spec.setConsumeFromWhere("TIMESTAMP");
        Clock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
        assertThat(spec.toConfig().consumerConfig(clock, false).consumeTimestamp())
                .isEqualTo(Instant.parse("2026-03-01T09:30:00Z"));
        spec.setConsumeTimestamp("20260301103000");
        assertThat(spec.toConfig().consumeTimestamp()).isPresent();
    }

    @Test
    void shouldNameEveryBadPropertyAtOnce() {
        FerryActivationSpec spec = new FerryActivationSpec();
        spec.setTopic("bad topic!");
        spec.setConsumerGroup(null);
        spec.setSelectorType("SQL92");
        spec.setSelectorExpression("*");
        spec.setMessageModel("SIDEWAYS");
        spec.setConsumeMode("RANDOMLY");
        spec.setMaxConcurrency(0);
        spec.setConsumeFromWhere("CONSUME_FROM_NOWHERE");
        spec.setConsumeTimestamp("yesterday");
        spec.setMaxReconsumeTimes(-5);
        spec.setAllocateStrategy("no spaces please");
        spec.setOffsetStore("bad/store");
        spec.setNameServer("localhost");

        InvalidPropertyException e = catchThrowableOfType(InvalidPropertyException.class, spec::validate);

        String[] bad = {"topic", "consumerGroup", "selectorExpression", "messageModel", "consumeMode",
            "maxConcurrency", "consumeFromWhere", "consumeTimestamp", "maxReconsumeTimes", "allocateStrategy",
            "offsetStore", "nameServer"};
        assertThat(e).isNotNull();
        assertThat(Arrays.stream(e.getInvalidPropertyDescriptors()).map(PropertyDescriptor::getName))
                .containsExactlyInAnyOrder(bad);
        assertThat(e.getMessage()).startsWith("FERRY-RA-0201").contains(bad.length + " bad properties");
        for (String property : bad) {
            assertThat(e.getMessage()).contains(property + " = '");
        }
        assertThat(e.getMessage()).contains("consumerGroup = 'null': is required")
                .contains("maxConcurrency = '0'").contains("messageModel = 'SIDEWAYS'");
    }

    @Test
    void shouldRequireTopicAndGroup() {
        InvalidPropertyException e = catchThrowableOfType(InvalidPropertyException.class,
                new FerryActivationSpec()::validate);
        assertThat(Arrays.stream(e.getInvalidPropertyDescriptors()).map(PropertyDescriptor::getName))
                .containsExactly("topic", "consumerGroup");
    }

    @Test
    void shouldTranslateBatchPoisonAndRedeliveryPropertiesForABatchBean() throws Exception {
        FerryActivationSpec spec = minimal();
        spec.setMaxBatchSize(50);
        spec.setMaxBatchWait("200ms");
        spec.setPauseQueueAfterFailures(3);
        spec.setRedeliveryDelay("2s");
        spec.setRedeliveryMultiplier(3.0);
        spec.setMaxRedeliveryDelay("1m");
        spec.validate();

        PushConsumerConfig consumer = spec.toConfig().consumerConfig(Clock.system(), true);

        assertThat(consumer.consumeBatchSize()).isEqualTo(50);
        assertThat(consumer.pullBatchSize()).isEqualTo(50);
        assertThat(consumer.consumeBatchWait()).isEqualTo(java.time.Duration.ofMillis(200));
        assertThat(consumer.pauseQueueAfterFailures()).isEqualTo(3);
        assertThat(consumer.redelivery()).contains(new dev.ferry.client.RedeliveryPolicy(java.time.Duration
                .ofSeconds(2), 3.0, java.time.Duration.ofMinutes(1)));
    }

    @Test
    void shouldGiveABatchBean32MessagesAndAMessageBeanOneUnlessToldOtherwise() throws Exception {
        ActivationConfig config = minimal().toConfig();
        assertThat(config.consumerConfig(Clock.system(), true).consumeBatchSize()).isEqualTo(32);
        assertThat(config.consumerConfig(Clock.system(), false).consumeBatchSize()).isEqualTo(1);
        assertThat(config.redelivery()).isEmpty();
        assertThat(config.pauseQueueAfterFailures()).as("the default: retry to the dead-letter queue").isZero();

        FerryActivationSpec spec = minimal();
        spec.setMaxBatchSize(10);
        ActivationConfig batched = spec.toConfig();
        assertThatThrownBy(() -> batched.consumerConfig(Clock.system(), false))
                .hasMessageContaining("maxBatchSize 10 is for beans that implement BatchMessageListener");
    }

    @Test
    void shouldKeepARedeliveryDelayConstantWithoutAMultiplier() throws Exception {
        FerryActivationSpec spec = minimal();
        spec.setRedeliveryDelay("500ms");
        assertThat(spec.toConfig().redelivery()).contains(new dev.ferry.client.RedeliveryPolicy(
                java.time.Duration.ofMillis(500), 1, java.time.Duration.ofMillis(500)));
        spec.setRedeliveryMultiplier(2.0);
        assertThat(spec.toConfig().redelivery().orElseThrow().maxDelay()).isEqualTo(java.time.Duration.ofHours(2));
    }

    @Test
    void shouldNameEachBadBatchPoisonOrRedeliveryProperty() {
        FerryActivationSpec spec = minimal();
        spec.setMaxBatchSize(5000);
        spec.setMaxBatchWait("a while");
        spec.setPauseQueueAfterFailures(-1);
        spec.setRedeliveryMultiplier(2.0);
        spec.setMaxRedeliveryDelay("1m");

        InvalidPropertyException e = catchThrowableOfType(InvalidPropertyException.class, spec::validate);

        assertThat(e.getMessage()).contains("maxBatchSize", "maxBatchWait", "pauseQueueAfterFailures",
                "redeliveryMultiplier", "maxRedeliveryDelay", "needs redeliveryDelay");
        assertThat(Arrays.stream(e.getInvalidPropertyDescriptors()).map(PropertyDescriptor::getName))
                .contains("maxBatchSize", "maxBatchWait", "pauseQueueAfterFailures", "redeliveryMultiplier",
                        "maxRedeliveryDelay");

        FerryActivationSpec shorter = minimal();
        shorter.setRedeliveryDelay("1m");
        shorter.setMaxRedeliveryDelay("10s");
        shorter.setMaxBatchWait("11s");
        InvalidPropertyException e2 = catchThrowableOfType(InvalidPropertyException.class, shorter::validate);
        assertThat(e2.getMessage()).contains("maxRedeliveryDelay", "must not be shorter than redeliveryDelay",
                "maxBatchWait", "at most 10s");
    }
}
