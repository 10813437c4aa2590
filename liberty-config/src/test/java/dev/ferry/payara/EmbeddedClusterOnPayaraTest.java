package dev.ferry.payara;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ferry.api.Message;
import dev.ferry.client.ClientConfig;
import dev.ferry.client.FerryClient;
import dev.ferry.client.Producer;
import dev.ferry.client.ProducerConfig;
import dev.ferry.client.cluster.TestCluster;
import dev.ferry.liberty.support.OrderRoundTrip;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two application servers, two embedded engines, one cluster: the first Payara Micro's adapter runs a name server
 * and broker-1, the second's runs broker-2 only, registered with the first's name server ({@code NameServer} on the
 * adapter). order-app's bean runs in both, one consumer group: with the orders topic on both brokers, each server's
 * bean gets its share and together they get every message.
 */
class EmbeddedClusterOnPayaraTest {
    private static final String NAME_SERVER = "127.0.0.1:20176";

    @TempDir
    Path offsets;

    @Test
    void shouldShareTheMessagesOfBothBrokersBetweenTheBeansOfBothServers() throws Exception {
        try (PayaraMicro first = PayaraMicro.start("payara-cluster-1", 19381,
                "Mode=embedded:NamesrvPort=20176:BrokerPort=20211:StoreDir=ferry-data:BrokerName=broker-1"
                        + ":ClusterName=payara");
             PayaraMicro second = PayaraMicro.start("payara-cluster-2", 19382,
                     "Mode=embedded:NameServer=127.0.0.1\\:20176:BrokerPort=20221:StoreDir=ferry-data"
                             + ":BrokerName=broker-2:ClusterName=payara")) {
            assertThat(second.log()).contains("FERRY-RA-0001 started in embedded mode as broker broker-2 id 0 of "
                    + "cluster payara, registered with " + NAME_SERVER);
            String created = TestCluster.admin(NAME_SERVER, "topic", "create", "orders", "--queues", "4");
            assertThat(created).contains("on 127.0.0.1:20211", "on 127.0.0.1:20221");

            try (FerryClient client = new FerryClient(ClientConfig.builder(NAME_SERVER).clientIp("127.0.0.1")
                    .localOffsetDirectory(offsets).build())) {
                Producer producer = client.producer(ProducerConfig.builder("payara-cluster-test").build());
                Set<String> sent = new HashSet<>();
                Set<String> brokers = new HashSet<>();
                await().atMost(Duration.ofSeconds(60)).until(() -> {
                    dev.ferry.api.SendResult result = producer.send(Message.builder("orders")
                            .body(("{\"item\":\"share-" + sent.size() + "\"}").getBytes(StandardCharsets.UTF_8))
                            .build());
                    sent.add(result.msgId());
                    brokers.add(result.messageQueue().brokerName());
                    return sent.size() >= 40 && brokers.size() == 2;
                });
                // the beans' consumers see broker-2's queues at their next route refresh, then share all eight
                await().atMost(Duration.ofSeconds(120)).untilAsserted(() -> {
                    Set<String> inFirst = received(first);
                    Set<String> inSecond = received(second);
                    Set<String> both = new HashSet<>(inFirst);
                    both.addAll(inSecond);
                    assertThat(both).as("every message, over both servers").containsAll(sent);
                    assertThat(inFirst).as("the first server's share").isNotEmpty();
                    assertThat(inSecond).as("the second server's share").isNotEmpty();
                });
            }
        }
    }

    private static Set<String> received(PayaraMicro server) {
        JsonNode orders = server.http().getJson("/order-app/orders/received");
        return OrderRoundTrip.msgIds(orders);
    }
}
