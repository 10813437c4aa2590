package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.Clock;
import dev.ferry.format.DelayLevels;
import dev.ferry.remoting.RemoteChannel;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestContext;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.header.ConsumerSendMsgBackRequestHeader;
import dev.ferry.store.AppendResult;
import dev.ferry.store.FlushMode;
import dev.ferry.store.MessageStore;
import dev.ferry.store.MessageToStore;
import dev.ferry.store.StoreConfig;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SendBackProcessorTest {
    private static final InetSocketAddress HOST = new InetSocketAddress("127.0.0.1", 10911);

    @TempDir
    Path dir;

    /** The answer to one request and the commit log's flushed offset when it was given. */
    private record Answer(RemotingCommand response, long flushedOffset) {
    }

    @Test
    void shouldAnswerASendBackUnderSyncFlushOnceTheRetryCopyIsDurable() throws Exception {
        StoreConfig config = StoreConfig.builder(dir.resolve("store")).commitLogSegmentSize(1024 * 1024)
                .flushMode(FlushMode.SYNC_FLUSH).build();
        try (MessageStore store = MessageStore.builder(config).open()) {
            AppendResult original = store.append(MessageToStore.builder("TopicBack", 0,
                    "fails".getBytes(StandardCharsets.UTF_8)).storeHost(HOST).build());
            Path configDir = dir.resolve("config");
            ScheduleService schedule = new ScheduleService(DelayLevels.parse("1s 1s 1s"), store, configDir,
                    Clock.system(), () -> HOST);
            RetryRouting routing = new RetryRouting(16, group -> java.util.Optional.empty(),
                    new TopicConfigTable(configDir, Clock.system(), 100),
                    () -> { });
            SubscriptionGroupTable groups = new SubscriptionGroupTable(configDir, Clock.system(), 100, 16, List.of());
            SendBackProcessor processor = new SendBackProcessor(store, routing, schedule, () -> HOST, groups,
                    new TopicCounters(), MessageAccess.OPEN);
            CompletableFuture<Answer> answered = new CompletableFuture<>();
            RequestContext context = new RequestContext() {
                @Override
                public RemoteChannel channel() {
                    return new FakeChannel("consumer");
                }

                @Override
                public void respond(RemotingCommand response) {
                    answered.complete(new Answer(response, store.commitLogFlushedOffset()));
                }
            };

            RemotingCommand direct = processor.process(context, RemotingCommand.request(
                    RequestCode.CONSUMER_SEND_MSG_BACK, new ConsumerSendMsgBackRequestHeader(original.physicalOffset(),
                            "CG_BACK", 0, null, null, null, 16, "broker-a")).build());
            if (direct != null) { // the force beat the processor's look at the future
                answered.complete(new Answer(direct, store.commitLogFlushedOffset()));
            }

            Answer answer = answered.get(10, TimeUnit.SECONDS);
            assertThat(answer.response().code()).as(answer.response().remark()).isEqualTo(ResponseCode.SUCCESS);
            assertThat(store.commitLogEndOffset()).as("the retry copy was appended")
                    .isGreaterThan(original.nextPhysicalOffset());
            assertThat(answer.flushedOffset()).as("flushed when answered").isEqualTo(store.commitLogEndOffset());
        }
    }

    @Test
    void shouldCountDeadLettersUnderAValidTopicWhateverRetryTopicAProducerSet() throws Exception {
        try (MessageStore store = MessageStore.builder(StoreConfig.builder(dir.resolve("store"))
                .commitLogSegmentSize(4 * 1024 * 1024).build()).open()) {
            Path configDir = dir.resolve("config");
            ScheduleService schedule = new ScheduleService(DelayLevels.parse("1s 1s 1s"), store, configDir,
                    Clock.system(), () -> HOST);
            RetryRouting routing = new RetryRouting(16, group -> java.util.Optional.empty(),
                    new TopicConfigTable(configDir, Clock.system(), 100), () -> { });
            SubscriptionGroupTable groups = new SubscriptionGroupTable(configDir, Clock.system(), 100, 16, List.of());
            TopicCounters counters = new TopicCounters();
            SendBackProcessor processor = new SendBackProcessor(store, routing, schedule, () -> HOST, groups,
                    counters, MessageAccess.OPEN);
            int abusive = 20;
            for (int i = 0; i < abusive; i++) {
                // 30 KiB of a RETRY_TOPIC no topic is named, different each time (a message's properties take 32 KiB)
                String retryTopic = i + " not a topic " + "x".repeat(30 * 1024);
                RemotingCommand answer = deadLetter(store, processor, java.util.Map.of("RETRY_TOPIC", retryTopic));
                assertThat(answer.code()).as(answer.remark()).isEqualTo(ResponseCode.SUCCESS);
            }
            assertThat(deadLetter(store, processor, java.util.Map.of("RETRY_TOPIC", "TopicOrigin")).code())
                    .isEqualTo(ResponseCode.SUCCESS);
            assertThat(deadLetter(store, processor, java.util.Map.of()).code()).isEqualTo(ResponseCode.SUCCESS);

            assertThat(counters.deadLettered()).as("counted under the stored message's own topic")
                    .containsOnly(java.util.Map.entry("TopicBack@CG_BACK", (long) abusive + 1),
                            java.util.Map.entry("TopicOrigin@CG_BACK", 1L));
        }
    }

    /** Stores a message of TopicBack with {@code properties} and sends it back straight to the DLQ of CG_BACK. */
    private static RemotingCommand deadLetter(MessageStore store, SendBackProcessor processor,
                                              java.util.Map<String, String> properties) throws Exception {
        AppendResult original = store.append(MessageToStore.builder("TopicBack", 0,
                "fails".getBytes(StandardCharsets.UTF_8)).properties(properties).storeHost(HOST).build());
        assertThat(original.isStored()).as(original.detail()).isTrue();
        return Answers.of(processor::process, RemotingCommand.request(RequestCode.CONSUMER_SEND_MSG_BACK,
                new ConsumerSendMsgBackRequestHeader(original.physicalOffset(), "CG_BACK", -1, null, null, null, 16,
                        "broker-a")).build(), "consumer").get(10, TimeUnit.SECONDS);
    }
}
