package dev.ferry.server.apache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.server.cli.FerryServerCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.header.UpdateConsumerOffsetRequestHeader;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code ferry-server admin}: topics, groups and lag of a running server, as an operator reads them. */
@Tag("integration")
class AdminCommandTest {
    @TempDir
    Path dir;

    private static String run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = new CommandLine(new FerryServerCommand()).setOut(new PrintWriter(out))
                .setErr(new PrintWriter(err)).execute(args);
        assertThat(exit).as("exit code; stderr: %s", err).isZero();
        return out.toString();
    }

    /** A row's cells, blanks folded, to compare without depending on column widths. */
    private static String row(String output, String first, String second) {
        for (String line : output.split("\\R")) {
            String[] cells = line.trim().split("\\s+");
            if (cells.length > 2 && cells[1].equals(first) && cells[2].equals(second)) {
                return String.join(" ", cells);
            }
            if (cells.length > 1 && cells[1].equals(first) && second == null) {
                return String.join(" ", cells);
            }
        }
        throw new AssertionError("no row for " + first + " " + second + " in:\n" + output);
    }

    @Test
    void shouldPrintTopicCountersGroupLagAndDeadLetterSizes() throws Exception {
        try (FerryServerFixture ferry = new FerryServerFixture(dir);
             ApacheClients clients = new ApacheClients(ferry.nameServer())) {
            DefaultMQProducer producer = clients.producer("PG_ADMIN");
            MessageQueue queue = new MessageQueue("TopicAdmin", "broker-a", 0);
            for (int i = 0; i < 5; i++) {
                producer.send(new Message("TopicAdmin", "T", ("m" + i).getBytes()), queue);
            }
            Message dead = new Message("%RETRY%CG_ADMIN", "T", "dead".getBytes());
            MessageAccessor.setReconsumeTime(dead, "3");
            MessageAccessor.setMaxReconsumeTimes(dead, "2");
            producer.send(dead, new MessageQueue("%RETRY%CG_ADMIN", "broker-a", 0));

            await().atMost(Duration.ofSeconds(10)).until(() ->
                    ferry.server().broker().store().nextOffset("TopicAdmin", 0) == 5); // all dispatched
            String broker = "127.0.0.1:" + ferry.server().brokerPort();
            NettyRemotingClient client = new NettyRemotingClient(new NettyClientConfig());
            client.start();
            try {
                RemotingCommand pull = RemotingCommand.createRequestCommand(RequestCode.PULL_MESSAGE,
                        ApacheClients.rawPull("CG_ADMIN", "TopicAdmin", "TAG", "*"));
                assertThat(client.invokeSync(broker, pull, 5000).getCode()).isEqualTo(ResponseCode.SUCCESS);
                UpdateConsumerOffsetRequestHeader commit = new UpdateConsumerOffsetRequestHeader();
                commit.setConsumerGroup("CG_ADMIN");
                commit.setTopic("TopicAdmin");
                commit.setQueueId(0);
                commit.setCommitOffset(2L);
                assertThat(client.invokeSync(broker, RemotingCommand.createRequestCommand(
                        RequestCode.UPDATE_CONSUMER_OFFSET, commit), 5000).getCode()).isEqualTo(ResponseCode.SUCCESS);
            } finally {
                client.shutdown();
            }
            await().atMost(Duration.ofSeconds(10)).until(() ->
                    ferry.server().broker().store().nextOffset("%DLQ%CG_ADMIN", 0) == 1);

            String topics = run("admin", "--broker", broker, "topics");
            assertThat(row(topics, "TopicAdmin", null)).isEqualTo("broker-a TopicAdmin 5 5 5");
            assertThat(row(topics, "%DLQ%CG_ADMIN", null)).isEqualTo("broker-a %DLQ%CG_ADMIN 0 0 1");

            String groups = run("admin", "--namesrv", ferry.nameServer(), "groups");
            assertThat(row(groups, "CG_ADMIN", null)).isEqualTo("broker-a CG_ADMIN 0 3 1");

            String lag = run("admin", "lag", "CG_ADMIN", "--broker", broker);
            assertThat(row(lag, "TopicAdmin", "0")).isEqualTo("broker-a TopicAdmin 0 5 2 3");
            assertThat(row(lag, "TopicAdmin", "1")).isEqualTo("broker-a TopicAdmin 1 0 0 0");
        }
    }

    @Test
    void shouldPrintTheBrokersHealthWhatItRefusedAndHowFullItsTablesAre() throws Exception {
        try (FerryServerFixture ferry = new FerryServerFixture(dir)) {
            String broker = "127.0.0.1:" + ferry.server().brokerPort();
            try (dev.ferry.remoting.endpoint.RemotingClient client = new dev.ferry.remoting.endpoint.RemotingClient(
                    dev.ferry.remoting.RemotingClientConfig.builder().build())) {
                client.invokeSync(broker, dev.ferry.remoting.RemotingCommand.request(38)
                        .extField("consumerGroup", "bad group!").build(), java.time.Duration.ofSeconds(5));
            }

            String output = run("admin", "--broker", broker, "health");

            assertThat(output).contains("broker broker-a");
            assertThat(output).containsPattern("dispatch failures\\s+0");
            assertThat(output).containsPattern("queues set aside\\s+none");
            assertThat(output).containsPattern("bad requests refused\\s+1");
            assertThat(output).containsPattern("processor failures\\s+0");
            // TBW102, the topics named after the cluster and the broker and the cluster's reply topic, as an Apache
            // broker has them
            assertThat(output).containsPattern("topics\\s+4");
        }
    }

    @Test
    void shouldPrintTheTimersWaitingAndFiredInTheBrokersHealth() throws Exception {
        try (FerryServerFixture ferry = new FerryServerFixture(dir);
             ApacheClients clients = new ApacheClients(ferry.nameServer())) {
            DefaultMQProducer producer = clients.producer("PG_ADMIN_TIMERS");
            producer.send(new Message("TopicTimers", "T", "create".getBytes()));
            long now = System.currentTimeMillis();
            for (int i = 0; i < 3; i++) {
                Message later = new Message("TopicTimers", "T", ("later" + i).getBytes());
                later.setDeliverTimeMs(now + 120_000);
                producer.send(later);
            }
            Message soon = new Message("TopicTimers", "T", "soon".getBytes());
            soon.setDeliverTimeMs(now + 1_500);
            producer.send(soon);
            String broker = "127.0.0.1:" + ferry.server().brokerPort();

            await().atMost(Duration.ofSeconds(30)).until(() ->
                    run("admin", "--broker", broker, "health").matches("(?s).*timers fired\\s+1\\R.*"));
            String output = run("admin", "--broker", broker, "health");

            assertThat(output).containsPattern("timers waiting\\s+3\\R");
            assertThat(output).containsPattern("timer messages not yet indexed\\s+0\\R");
            assertThat(output).containsPattern("timers indexed\\s+4\\R");
            assertThat(output).containsPattern("timers cancelled\\s+0\\R");
            assertThat(output).containsPattern("timers lost\\s+0\\R");
            assertThat(output).containsPattern("timer firing behind \\(ms\\)\\s+\\d+\\R");
        }
    }
}
