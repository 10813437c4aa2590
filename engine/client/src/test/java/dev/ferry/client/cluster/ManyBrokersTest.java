package dev.ferry.client.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.api.Message;
import dev.ferry.api.MessageQueue;
import dev.ferry.client.ClientConfig;
import dev.ferry.client.ConsumeFromWhere;
import dev.ferry.client.FerryClient;
import dev.ferry.client.Producer;
import dev.ferry.client.ProducerConfig;
import dev.ferry.client.PushConsumer;
import dev.ferry.client.PushConsumerConfig;
import dev.ferry.remoting.testing.ClientShutdowns;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two Ferry name servers and three Ferry brokers, each a process of its own, writing with SYNC_FLUSH. A topic made
 * on every broker spreads its queues over all three; Apache 5.3.3's client and Ferry's send across all of them and
 * their consumers share all twelve queues. One broker is SIGKILLed while both producers send: they move to the other
 * two and the consumers keep consuming those; when it comes back on its store, its messages are consumed too. No
 * acknowledged message is lost; duplicates (offsets the killed broker had not yet written) are counted and printed.
 */
@Tag("integration")
class ManyBrokersTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String TOPIC = "Spread";
    private static final int QUEUES_PER_BROKER = 4;

    @TempDir
    Path dir;

    @Test
    void shouldSpreadOverEveryBrokerAndLoseNothingAcknowledgedWhenOneIsKilledUnderLoad() throws Exception {
        try (ClusterNode ns1 = ClusterNode.nameServer(dir, "ns1");
             ClusterNode ns2 = ClusterNode.nameServer(dir, "ns2")) {
            String nameServers = ns1.address() + ";" + ns2.address();
            try (ClusterNode a = ClusterNode.broker(dir, "broker-a", "SpreadCluster", nameServers);
                 ClusterNode b = ClusterNode.broker(dir, "broker-b", "SpreadCluster", nameServers);
                 ClusterNode c = ClusterNode.broker(dir, "broker-c", "SpreadCluster", nameServers);
                 ClusterRolesTest.Admin admin = new ClusterRolesTest.Admin(nameServers)) {
                await().atMost(WAIT).until(() -> admin.brokerNames().size() == 3);
                // ferry-server admin creates it on every master the name server knows
                String created = TestCluster.admin(ns1.address(), "topic", "create", TOPIC, "--queues",
                        Integer.toString(QUEUES_PER_BROKER));
                for (ClusterNode broker : List.of(a, b, c)) {
                    assertThat(created).contains("created topic " + TOPIC + " on " + broker.address());
                }
                await().atMost(WAIT).untilAsserted(() -> {
                    TopicRouteData route = admin.apache().examineTopicRouteInfo(TOPIC);
                    assertThat(route.getBrokerDatas()).hasSize(3);
                    assertThat(route.getQueueDatas()).hasSize(3);
                });
                run(nameServers, b);
                // every queue of every broker in the group's lag, and nothing left to consume
                await().atMost(WAIT).untilAsserted(() -> {
                    List<String> rows = TestCluster.admin(ns2.address(), "lag", "spread-ferry").lines()
                            .filter(line -> line.contains(" " + TOPIC + " ")).toList();
                    assertThat(rows).hasSize(3 * QUEUES_PER_BROKER);
                    for (String broker : List.of("broker-a", "broker-b", "broker-c")) {
                        assertThat(rows).filteredOn(row -> row.startsWith(broker + " ")).hasSize(QUEUES_PER_BROKER);
                    }
                    assertThat(rows).allMatch(row -> row.endsWith(" 0"), "no lag left");
                });
            }
        }
    }

    private void run(String nameServers, ClusterNode victim) throws Exception {
        Traffic traffic = new Traffic();
        DefaultMQProducer apacheProducer = ApacheClients.producer(nameServers, "spread-apache-producer");
        apacheProducer.setSendLatencyFaultEnable(true); // Apache's latency fault tolerance
        DefaultMQPushConsumer apacheConsumer = ApacheClients.pushConsumer(nameServers, "spread-apache", TOPIC,
                traffic::consumedByApache);
        FerryClient producerClient = client(nameServers, "producer");
        FerryClient consumerClient1 = client(nameServers, "consumer-1");
        FerryClient consumerClient2 = client(nameServers, "consumer-2");
        try {
            Producer ferryProducer = producerClient.producer(ProducerConfig.builder("spread-ferry-producer").build());
            List<PushConsumer> ferryConsumers = new ArrayList<>();
            for (FerryClient consumerClient : List.of(consumerClient1, consumerClient2)) {
                ferryConsumers.add(consumerClient.pushConsumer(PushConsumerConfig.builder("spread-ferry")
                        .subscribe(TOPIC, "*").consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET)
                        .build(), message -> traffic.consumedByFerry(utf8(message.body()), message.brokerName())));
            }
            // The two Ferry consumers share all twelve queues of the three brokers.
            await().atMost(WAIT).untilAsserted(() -> {
                Set<MessageQueue> union = new HashSet<>();
                for (PushConsumer consumer : ferryConsumers) {
                    // besides the group's retry topic, one queue on each broker
                    List<MessageQueue> mine = consumer.assignedQueues().stream()
                            .filter(queue -> queue.topic().equals(TOPIC)).toList();
                    assertThat(mine).isNotEmpty();
                    union.addAll(mine);
                }
                assertThat(union).hasSize(3 * QUEUES_PER_BROKER);
                assertThat(union.stream().map(MessageQueue::brokerName).distinct())
                        .containsExactlyInAnyOrder("broker-a", "broker-b", "broker-c");
            });

            AtomicBoolean sending = new AtomicBoolean(true);
            Thread apacheSender = sender("apache", sending, traffic, n -> {
                try {
                    org.apache.rocketmq.client.producer.SendResult result = apacheProducer.send(
                            new org.apache.rocketmq.common.message.Message(TOPIC, utf8("apache-" + n)));
                    traffic.acknowledged("apache-" + n, result.getMessageQueue().getBrokerName());
                    return true;
                } catch (Exception e) {
                    return false;
                }
            });
            Thread ferrySender = sender("ferry", sending, traffic, n -> {
                try {
                    dev.ferry.api.SendResult result = ferryProducer.send(Message.builder(TOPIC)
                            .body(utf8("ferry-" + n)).build());
                    traffic.acknowledged("ferry-" + n, result.messageQueue().brokerName());
                    return true;
                } catch (RuntimeException e) {
                    return false;
                }
            });

            // Sends reach all three brokers, and both consumers get messages from all three.
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(traffic.acknowledgedPerBroker.keySet()).containsOnly("broker-a", "broker-b", "broker-c");
                assertThat(traffic.consumedFromPerBroker("ferry")).containsOnlyKeys("broker-a", "broker-b",
                        "broker-c");
                assertThat(traffic.consumedFromPerBroker("apache")).containsOnlyKeys("broker-a", "broker-b",
                        "broker-c");
            });

            victim.kill();
            traffic.victimBeforeKill = traffic.acknowledgedTo(victim.name());
            int acknowledgedAtKill = traffic.acknowledged.size();
            // Both producers go on with the other two brokers, and what they send there is consumed meanwhile.
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(traffic.acknowledgedAfter(acknowledgedAtKill, "apache")).isGreaterThan(300);
                assertThat(traffic.acknowledgedAfter(acknowledgedAtKill, "ferry")).isGreaterThan(300);
                assertThat(traffic.consumedAfter(acknowledgedAtKill, "ferry"))
                        .as("consumed by Ferry's consumers after the kill").isGreaterThan(300);
                assertThat(traffic.consumedAfter(acknowledgedAtKill, "apache"))
                        .as("consumed by Apache's consumer after the kill").isGreaterThan(300);
            });

            victim.start(); // on its store, at its port
            await().atMost(WAIT).until(() -> traffic.acknowledgedTo(victim.name()) > traffic.victimBeforeKill);
            sending.set(false);
            apacheSender.join();
            ferrySender.join();

            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(traffic.missing("ferry")).as("acknowledged, never consumed by Ferry's consumers")
                        .isEmpty();
                assertThat(traffic.missing("apache")).as("acknowledged, never consumed by Apache's consumer")
                        .isEmpty();
            });
            System.out.printf("three brokers, %s SIGKILLed under load: %,d sends acknowledged, %,d failed "
                            + "(%,d by the Apache producer); duplicate deliveries: %,d to Ferry's consumers, %,d to "
                            + "Apache's%n", victim.name(), traffic.acknowledged.size(), traffic.failures.get(),
                    traffic.apacheFailures.get(), traffic.duplicates("ferry"), traffic.duplicates("apache"));
            ferryConsumers.forEach(PushConsumer::close);
        } finally {
            ClientShutdowns.together(apacheConsumer::shutdown, apacheProducer::shutdown);
            consumerClient1.close();
            consumerClient2.close();
            producerClient.close();
        }
    }

    private FerryClient client(String nameServers, String name) {
        return new FerryClient(ClientConfig.builder(nameServers.split(";")).clientIp("127.0.0.1")
                .instanceName("spread-" + name).localOffsetDirectory(dir.resolve("offsets-" + name)).build());
    }

    /** Sends numbered messages one after the other until told to stop, counting failures. */
    private static Thread sender(String name, AtomicBoolean sending, Traffic traffic, IntPredicate send) {
        Thread thread = new Thread(() -> {
            for (int n = 0; sending.get(); n++) {
                if (!send.test(n)) {
                    traffic.failures.incrementAndGet();
                    if (name.equals("apache")) {
                        traffic.apacheFailures.incrementAndGet();
                    }
                }
            }
        }, "spread-" + name + "-sender");
        thread.start();
        return thread;
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String utf8(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** What was acknowledged and what each group consumed, in order of acknowledgement. */
    private static final class Traffic {
        final List<String> acknowledged = Collections.synchronizedList(new ArrayList<>());
        final Map<String, AtomicInteger> acknowledgedPerBroker = new ConcurrentHashMap<>();
        final Map<String, Map<String, AtomicInteger>> consumed = Map.of("ferry", new ConcurrentHashMap<>(),
                "apache", new ConcurrentHashMap<>());
        final Map<String, Map<String, AtomicInteger>> consumedFrom = Map.of("ferry", new ConcurrentHashMap<>(),
                "apache", new ConcurrentHashMap<>());
        final AtomicInteger failures = new AtomicInteger();
        final AtomicInteger apacheFailures = new AtomicInteger();
        volatile int victimBeforeKill = Integer.MAX_VALUE;

        void acknowledged(String body, String brokerName) {
            acknowledged.add(body);
            acknowledgedPerBroker.computeIfAbsent(brokerName, k -> new AtomicInteger()).incrementAndGet();
        }

        int acknowledgedTo(String brokerName) {
            AtomicInteger count = acknowledgedPerBroker.get(brokerName);
            return count == null ? 0 : count.get();
        }

        void consumedByFerry(String body, String brokerName) {
            consumed("ferry", body, brokerName);
        }

        void consumedByApache(String body, String brokerName) {
            consumed("apache", body, brokerName);
        }

        private void consumed(String group, String body, String brokerName) {
            consumed.get(group).computeIfAbsent(body, k -> new AtomicInteger()).incrementAndGet();
            consumedFrom.get(group).computeIfAbsent(brokerName, k -> new AtomicInteger()).incrementAndGet();
        }

        Map<String, AtomicInteger> consumedFromPerBroker(String group) {
            return consumedFrom.get(group);
        }

        long acknowledgedAfter(int index, String producer) {
            synchronized (acknowledged) {
                return acknowledged.subList(index, acknowledged.size()).stream()
                        .filter(body -> body.startsWith(producer + "-")).count();
            }
        }

        long consumedAfter(int index, String group) {
            synchronized (acknowledged) {
                return acknowledged.subList(index, acknowledged.size()).stream()
                        .filter(body -> consumed.get(group).containsKey(body)).count();
            }
        }

        List<String> missing(String group) {
            synchronized (acknowledged) {
                return acknowledged.stream().filter(body -> !consumed.get(group).containsKey(body)).limit(20)
                        .toList();
            }
        }

        long duplicates(String group) {
            return consumed.get(group).values().stream().mapToLong(count -> count.get() - 1L).sum();
        }
    }
}
