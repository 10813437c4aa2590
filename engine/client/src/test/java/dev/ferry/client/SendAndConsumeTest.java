package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ferry.api.BrokerException;
import dev.ferry.api.Message;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.api.SendResult;
import dev.ferry.api.SendStatus;
import dev.ferry.spi.FilterExpressionException;
import dev.ferry.spi.UnknownPluginException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** Ferry's producer sends every way, Ferry's push consumer receives exactly what was sent. */
class SendAndConsumeTest extends AgainstCluster {
    private static final Duration WAIT = Duration.ofSeconds(30);


    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void shouldDeliverSyncAsyncOnewayAndBatchSendsUnchanged() {
        String topic = ClientTestSupport.unique("SendAll");
        Producer producer = producer();
        SendResult sync = producer.send(Message.builder(topic).body(utf8("hello sync")).tags("TagA")
                .keys("KEY1", "KEY2").property("myProp", "myValue").build());
        SendResult async = producer.sendAsync(Message.builder(topic).body(utf8("hello async")).tags("TagB")
                .keys("KEY3").build()).join();
        producer.sendOneway(Message.builder(topic).body(utf8("hello oneway")).tags("TagA").build());
        SendResult batch = producer.send(List.of(
                Message.builder(topic).body(utf8("hello batch 0")).tags("TagB").keys("BKEY0").build(),
                Message.builder(topic).body(utf8("hello batch 1")).tags("TagB").keys("BKEY1").build()));

        assertThat(sync.status()).isEqualTo(SendStatus.SEND_OK);
        assertThat(sync.msgId()).hasSize(32);
        assertThat(sync.offsetMsgId()).hasSize(32);
        assertThat(async.status()).isEqualTo(SendStatus.SEND_OK);
        assertThat(batch.msgIds()).hasSize(2);

        Map<String, ReceivedMessage> received = new ConcurrentHashMap<>();
        PushConsumer consumer = client.pushConsumer(PushConsumerConfig.builder(ClientTestSupport.unique("CG"))
                .subscribe(topic, "*").consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).build(),
                message -> received.put(new String(message.body(), StandardCharsets.UTF_8), message));
        try {
            await().atMost(WAIT).until(() -> received.size() == 5);
        } finally {
            consumer.close();
        }
        ReceivedMessage first = received.get("hello sync");
        assertThat(first.topic()).isEqualTo(topic);
        assertThat(first.tags()).contains("TagA");
        assertThat(first.keys()).containsExactly("KEY1", "KEY2");
        assertThat(first.property("myProp")).contains("myValue");
        assertThat(first.msgId()).isEqualTo(sync.msgId());
        assertThat(first.queueId()).isEqualTo(sync.queueId());
        assertThat(first.queueOffset()).isEqualTo(sync.queueOffset());
        assertThat(first.reconsumeTimes()).isZero();
        assertThat(received.get("hello async").keys()).containsExactly("KEY3");
        assertThat(received.get("hello oneway").tags()).contains("TagA");
        assertThat(received.get("hello batch 1").keys()).containsExactly("BKEY1");
        assertThat(received.get("hello batch 1").msgId()).isEqualTo(batch.msgIds().get(1));
    }

    @Test
    void shouldDeliverToAConsumerThatStartedBeforeItsTopicExisted() {
        String topic = ClientTestSupport.unique("Later");
        // A client of its own that knows no broker yet: nothing to heartbeat until the topic has a route.
        FerryClient consumerClient = newClient();
        List<String> received = new java.util.concurrent.CopyOnWriteArrayList<>();
        PushConsumer consumer = consumerClient.pushConsumer(PushConsumerConfig.builder(ClientTestSupport.unique("CG"))
                .subscribe(topic, "*").consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).build(),
                message -> received.add(new String(message.body(), StandardCharsets.UTF_8)));
        try {
            producer().send(Message.builder(topic).body(utf8("created the topic")).build());
            // Well before the 30 s heartbeat period: the consumer greets the broker as soon as it sees the route.
            await().atMost(Duration.ofSeconds(15)).until(() -> received.contains("created the topic"));
        } finally {
            consumer.close();
        }
    }

    @Test
    void shouldDeliverOnlyMessagesWithSubscribedTags() {
        String topic = ClientTestSupport.unique("Tags");
        Producer producer = producer();
        for (String tag : List.of("TagA", "TagB", "TagC", "TagA", "TagD", "TagB")) {
            producer.send(Message.builder(topic).body(utf8(tag)).tags(tag).build());
        }
        producer.send(Message.builder(topic).body(utf8("untagged")).build());
        producer.send(Message.builder(topic).body(utf8("last")).tags("TagB").keys("LAST").build());

        List<String> received = new java.util.concurrent.CopyOnWriteArrayList<>();
        PushConsumer consumer = client.pushConsumer(PushConsumerConfig.builder(ClientTestSupport.unique("CG"))
                .subscribe(topic, "TagA || TagB").consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).build(),
                message -> received.add(message.tags().orElse("none")));
        try {
            await().atMost(WAIT).until(() -> received.size() >= 5);
        } finally {
            consumer.close();
        }
        assertThat(received).containsExactlyInAnyOrder("TagA", "TagA", "TagB", "TagB", "TagB");
    }

    @Test
    void shouldCompressLargeBodiesAndDeliverThemUncompressed() {
        String topic = ClientTestSupport.unique("Big");
        Producer producer = producer();
        byte[] body = "ferry ".repeat(5_000).getBytes(StandardCharsets.UTF_8);
        producer.send(Message.builder(topic).body(body).build());

        List<ReceivedMessage> received = new java.util.concurrent.CopyOnWriteArrayList<>();
        PushConsumer consumer = client.pushConsumer(PushConsumerConfig.builder(ClientTestSupport.unique("CG"))
                .subscribe(topic, "*").consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).build(), received::add);
        try {
            await().atMost(WAIT).until(() -> !received.isEmpty());
        } finally {
            consumer.close();
        }
        assertThat(received.get(0).body()).isEqualTo(body);
    }

    @Test
    void shouldSendEveryMessageOfAShardingKeyToTheSameQueue() {
        String topic = ClientTestSupport.unique("Ordered");
        Producer producer = producer();
        java.util.Set<Integer> orderA = new java.util.HashSet<>();
        java.util.Set<Integer> orderB = new java.util.HashSet<>();
        List<Long> offsetsA = new java.util.ArrayList<>();
        for (int i = 0; i < 6; i++) {
            SendResult a = producer.send(Message.builder(topic).body(utf8("a" + i)).build(), "order-A");
            orderA.add(a.queueId());
            offsetsA.add(a.queueOffset());
            orderB.add(producer.send(Message.builder(topic).body(utf8("b" + i)).build(), "order-B").queueId());
        }
        assertThat(orderA).hasSize(1);
        assertThat(orderB).hasSize(1);
        assertThat(offsetsA).isSorted();
    }

    @Test
    void shouldDelayMessagesWithADelayLevel() {
        String topic = ClientTestSupport.unique("Delayed");
        Producer producer = producer();
        producer.send(Message.builder(topic).body(utf8("warm-up")).build());
        List<ReceivedMessage> received = new java.util.concurrent.CopyOnWriteArrayList<>();
        PushConsumer consumer = client.pushConsumer(PushConsumerConfig.builder(ClientTestSupport.unique("CG"))
                .subscribe(topic, "*").consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).build(), received::add);
        try {
            await().atMost(WAIT).until(() -> received.size() == 1);
            producer.send(Message.builder(topic).body(utf8("delayed")).delayLevel(1).build());
            await().atMost(WAIT).until(() -> received.size() == 2);
        } finally {
            consumer.close();
        }
        ReceivedMessage delayed = received.get(1);
        assertThat(delayed.property("DELAY")).contains("1");
        assertThat(delayed.storeTimestamp() - delayed.bornTimestamp()).isGreaterThanOrEqualTo(900);
    }

    @Test
    void shouldHoldAMessageWithADelayOrDeliveryTimeUntilItsTime() {
        String topic = ClientTestSupport.unique("Timer");
        Producer producer = producer();
        producer.send(Message.builder(topic).body(utf8("warm-up")).build());
        Map<String, Long> arrivals = new ConcurrentHashMap<>();
        PushConsumer consumer = client.pushConsumer(PushConsumerConfig.builder(ClientTestSupport.unique("CG"))
                .subscribe(topic, "*").consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).build(),
                message -> arrivals.put(new String(message.body(), StandardCharsets.UTF_8),
                        System.currentTimeMillis()));
        try {
            await().atMost(WAIT).until(() -> arrivals.containsKey("warm-up"));
            long sentAt = System.currentTimeMillis();
            Instant deliveryTime = Instant.ofEpochMilli(sentAt).plusSeconds(4);
            producer.send(Message.builder(topic).body(utf8("after 3 s")).deliverAfter(Duration.ofSeconds(3)).build());
            producer.send(Message.builder(topic).body(utf8("at its time")).deliverAt(deliveryTime).build());
            producer.send(Message.builder(topic).body(utf8("in the past"))
                    .deliverAt(Instant.ofEpochMilli(sentAt - 60_000)).build());
            await().atMost(WAIT).until(() -> arrivals.size() == 4);

            assertThat(arrivals.get("after 3 s") - sentAt).isGreaterThanOrEqualTo(3000);
            assertThat(arrivals.get("at its time")).isGreaterThanOrEqualTo(deliveryTime.toEpochMilli());
            assertThat(arrivals.get("in the past")).isLessThan(arrivals.get("after 3 s"));
        } finally {
            consumer.close();
        }
    }

    @Test
    void shouldRefuseADeliveryTimeBeyondTheBrokersLimitWithItsRemark() {
        String topic = ClientTestSupport.unique("TimerLimit");
        Producer producer = producer();
        Message tooLate = Message.builder(topic).body(utf8("in four days"))
                .deliverAt(Instant.now().plus(Duration.ofDays(4))).build();

        assertThatThrownBy(() -> producer.send(tooLate)).isInstanceOfSatisfying(BrokerException.class, e -> {
            assertThat(e.responseCode()).isEqualTo(13);
            assertThat(e.isRetriable()).isFalse();
            assertThat(e.remark()).startsWith("timer message illegal, the delay time should not be bigger than the max"
                    + " delay 259200000ms");
        }).hasMessageContaining("response code 13 (timer message illegal");
    }

    @Test
    void shouldLetTheBrokerFilterBySql92() {
        String topic = ClientTestSupport.unique("Sql");
        Producer producer = producer();
        for (int i = 0; i < 10; i++) {
            producer.send(Message.builder(topic).body(utf8("n" + i)).tags(i % 2 == 0 ? "even" : "odd")
                    .property("n", Integer.toString(i)).build());
        }
        List<String> received = new java.util.concurrent.CopyOnWriteArrayList<>();
        PushConsumer consumer = client.pushConsumer(PushConsumerConfig.builder(ClientTestSupport.unique("CG"))
                .subscribe(Subscription.sql92(topic, "n >= 6 AND TAGS = 'even'"))
                .consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).build(),
                message -> received.add(new String(message.body(), StandardCharsets.UTF_8)));
        try {
            await().atMost(WAIT).until(() -> received.size() >= 2);
        } finally {
            consumer.close();
        }
        assertThat(received).containsExactlyInAnyOrder("n6", "n8");
    }

    @Test
    void shouldFilterWithTheClientsOwnFilterPluginOnABrokerThatLacksIt() {
        String topic = ClientTestSupport.unique("Prefix");
        Producer producer = producer();
        for (String tag : List.of("order-paid", "invoice-sent", "order-shipped", "orders", "refund")) {
            producer.send(Message.builder(topic).body(utf8(tag)).tags(tag).build());
        }
        producer.send(Message.builder(topic).body(utf8("untagged")).build());
        producer.send(Message.builder(topic).body(utf8("last")).tags("order-last").build());

        List<String> received = new java.util.concurrent.CopyOnWriteArrayList<>();
        PushConsumer consumer = client.pushConsumer(PushConsumerConfig.builder(ClientTestSupport.unique("CG"))
                .subscribe(new Subscription(topic, TagPrefixFilterProvider.TYPE, "order-"))
                .consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).build(),
                message -> received.add(message.tags().orElse("none")));
        try {
            // The last message sent matches: once it is in, every earlier one has been through the filter.
            await().atMost(WAIT).until(() -> received.contains("order-last"));
        } finally {
            consumer.close();
        }
        assertThat(received).containsExactlyInAnyOrder("order-paid", "order-shipped", "order-last");
    }

    @Test
    void shouldRefuseAConsumerWhoseExpressionTheClientsFilterPluginRefuses() {
        String group = ClientTestSupport.unique("CG");
        PushConsumerConfig config = PushConsumerConfig.builder(group)
                .subscribe(new Subscription(ClientTestSupport.unique("Prefix"), TagPrefixFilterProvider.TYPE, "a b"))
                .build();

        assertThatThrownBy(() -> client.pushConsumer(config, message -> { }))
                .isInstanceOf(FilterExpressionException.class)
                .hasMessageContaining("TAG_PREFIX").hasMessageContaining("a b");
    }

    @Test
    void shouldRefuseAConsumerWhoseFallbackStrategyIsNowhere() {
        PushConsumerConfig push = PushConsumerConfig.builder(ClientTestSupport.unique("CG"))
                .subscribe(ClientTestSupport.unique("Fallback"), "*").fallbackAllocateStrategy("no-such-strategy")
                .build();
        PullConsumerConfig pull = PullConsumerConfig.builder(ClientTestSupport.unique("CG"))
                .fallbackAllocateStrategy("no-such-strategy").build();

        assertThatThrownBy(() -> client.pushConsumer(push, message -> { }))
                .isInstanceOf(UnknownPluginException.class).hasMessageContaining("no-such-strategy")
                .hasMessageContaining("averagely");
        assertThatThrownBy(() -> client.pullConsumer(pull))
                .isInstanceOf(UnknownPluginException.class).hasMessageContaining("no-such-strategy");
    }
}
