package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.format.ManualClock;
import dev.ferry.format.PullFlags;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.Permission;
import dev.ferry.remoting.protocol.body.TopicConfig;
import dev.ferry.remoting.protocol.header.PullMessageRequestHeader;
import dev.ferry.remoting.protocol.header.PullMessageResponseHeader;
import dev.ferry.spi.MessageFilterProvider;
import dev.ferry.spi.PluginRegistry;
import dev.ferry.store.GetMessageStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pull processor against a fake store: its answers, its bounds, and the pulls it holds and wakes. */
class PullMessageProcessorTest {
    private static final String TOPIC = "TopicPull";
    private static final String GROUP = "CG_PULL";
    /** Suspend, and a subscription carried in the pull: no heartbeat needed. */
    private static final int LONG_POLL = PullFlags.SUSPEND | PullFlags.SUBSCRIPTION;

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(1_000_000);
    private final FakeMessageReader store = new FakeMessageReader();
    private final List<Runnable> pullExecutor = new ArrayList<>();
    private final TopicCounters counters = new TopicCounters();
    private final PullOffsets pullOffsets = new PullOffsets(1000);
    private PullRequestHold hold;
    private PullMessageProcessor processor;
    private TopicConfigTable topics;

    @BeforeEach
    void processor() {
        topics = new TopicConfigTable(dir, clock, 100);
        topics.putIfAbsent(TopicConfig.of(TOPIC, 4));
        processor = processor(new PullRequestHold(clock, pullExecutor::add, 10, 10));
    }

    /** A processor that holds pulls in {@code pulls}. */
    private PullMessageProcessor processor(PullRequestHold pulls) {
        this.hold = pulls;
        BrokerLimits limits = BrokerLimits.defaults();
        SubscriptionFilters filters = new SubscriptionFilters(PluginRegistry.load(MessageFilterProvider.KIND,
                getClass().getClassLoader()), true, limits.maxExpressionLength(), limits.filterCacheBytes());
        return new PullMessageProcessor(new PullSettings(32, 1024, 30_000), store, topics,
                new ConsumerGroups(clock, limits.maxSubscriptionBytes()), new ConsumerOffsetTable(dir, 1000), filters,
                pulls, clock, counters, new SubscriptionGroupTable(dir, clock, 100, 16, List.of()), pullOffsets);
    }

    private static PullMessageRequestHeader header(int queueId, long offset, int maxMessages, int sysFlag,
                                                   Integer maxBytes) {
        return new PullMessageRequestHeader(GROUP, TOPIC, queueId, offset, maxMessages, sysFlag, 0L, 15_000L, "*", 0L,
                "TAG", maxBytes, "broker-a");
    }

    /** The answer: given at once, or later through the context (a held pull). */
    private CompletableFuture<RemotingCommand> pull(PullMessageRequestHeader header) {
        return Answers.of(processor::process, RemotingCommand.request(RequestCode.PULL_MESSAGE, header).build(),
                "consumer");
    }

    private RemotingCommand pullNow(PullMessageRequestHeader header) {
        CompletableFuture<RemotingCommand> answer = pull(header);
        assertThat(answer).as("answered at once").isDone();
        return answer.join();
    }

    private void runPullExecutor() {
        List<Runnable> due = new ArrayList<>(pullExecutor);
        pullExecutor.clear();
        due.forEach(Runnable::run);
    }

    @Test
    void shouldAnswerTheStoredMessagesWithTheNextOffsetAndCountThem() {
        store.found(5, 3, 40);

        RemotingCommand answer = pullNow(header(0, 5, 32, PullFlags.SUBSCRIPTION, null));

        assertThat(answer.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(answer.header(PullMessageResponseHeader.class).nextBeginOffset()).isEqualTo(8);
        assertThat(counters.allOut()).isEqualTo(3);
    }

    @Test
    void shouldReadNoMoreThanTheBrokersMostMessagesAndTheDefaultBytesWhenTheConsumerNamesNone() {
        pullNow(header(0, 0, 500, PullFlags.SUBSCRIPTION, null));
        pullNow(header(0, 0, 0, PullFlags.SUBSCRIPTION, 64));

        assertThat(store.reads).extracting(FakeMessageReader.Read::maxMessages).containsExactly(32, 1);
        assertThat(store.reads).extracting(FakeMessageReader.Read::maxBytes).containsExactly(1024, 64);
    }

    @Test
    void shouldAnswerPullNotFoundWhenNothingIsThereAndThePullMayNotWait() {
        store.answer(GetMessageStatus.NO_NEW_MESSAGE, 7, 0, 7);

        RemotingCommand answer = pullNow(header(0, 7, 32, PullFlags.SUBSCRIPTION, null));

        assertThat(answer.code()).isEqualTo(ResponseCode.PULL_NOT_FOUND);
        assertThat(answer.header(PullMessageResponseHeader.class).nextBeginOffset()).isEqualTo(7);
    }

    @Test
    void shouldAnswerOffsetMovedToTheQueuesMinimumWhenTheOffsetIsTooSmall() {
        store.answer(GetMessageStatus.OFFSET_TOO_SMALL, 0, 100, 150);

        RemotingCommand answer = pullNow(header(0, 3, 32, PullFlags.SUBSCRIPTION, null));

        assertThat(answer.code()).isEqualTo(ResponseCode.PULL_OFFSET_MOVED);
        assertThat(answer.header(PullMessageResponseHeader.class).nextBeginOffset()).isEqualTo(100);
    }

    @Test
    void shouldAnswerOffsetMovedWhenTheOffsetIsBeyondADispatchedQueue() {
        store.answer(GetMessageStatus.OFFSET_OVERFLOW, 0, 0, 10);
        store.dispatchedOffset = 500;
        store.commitLogEndOffset = 500;

        RemotingCommand answer = pullNow(header(0, 90, 32, PullFlags.SUBSCRIPTION, null));

        assertThat(answer.code()).isEqualTo(ResponseCode.PULL_OFFSET_MOVED);
        assertThat(answer.header(PullMessageResponseHeader.class).nextBeginOffset()).isEqualTo(10);
    }

    @Test
    void shouldTreatAnOffsetBeyondTheQueueAsNothingYetWhileTheDispatcherLags() {
        store.answer(GetMessageStatus.OFFSET_OVERFLOW, 0, 0, 10);
        store.dispatchedOffset = 400;
        store.commitLogEndOffset = 500;

        assertThat(pullNow(header(0, 11, 32, PullFlags.SUBSCRIPTION, null)).code())
                .isEqualTo(ResponseCode.PULL_NOT_FOUND);
    }

    @Test
    void shouldHoldALongPollUntilAMessageArrivesAndThenAnswerIt() {
        store.answer(GetMessageStatus.NO_NEW_MESSAGE, 4, 0, 4);
        store.nextOffset = 4;

        CompletableFuture<RemotingCommand> answer = pull(header(1, 4, 32, LONG_POLL, null));

        assertThat(answer).as("held").isNotDone();
        assertThat(hold.size()).isEqualTo(1);
        store.found(4, 1, 40);
        hold.onArrival(TOPIC, 1, 5);
        runPullExecutor();
        assertThat(answer).isDone();
        assertThat(answer.join().code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(hold.size()).isZero();
    }

    @Test
    void shouldAnswerAHeldPullNotFoundOnceItsSuspensionHasPassed() {
        store.answer(GetMessageStatus.NO_NEW_MESSAGE, 4, 0, 4);
        store.nextOffset = 4;
        CompletableFuture<RemotingCommand> answer = pull(header(0, 4, 32, LONG_POLL, null));
        assertThat(answer).isNotDone();

        clock.advance(Duration.ofSeconds(16));
        hold.expire();
        runPullExecutor();

        assertThat(answer).isDone();
        assertThat(answer.join().code()).isEqualTo(ResponseCode.PULL_NOT_FOUND);
    }

    @Test
    void shouldNotHoldAPullThatArrivesAfterAMessageWasDispatchedBetweenTheReadAndTheHold() {
        store.answer(GetMessageStatus.NO_NEW_MESSAGE, 4, 0, 4);
        store.nextOffset = 5; // dispatched meanwhile

        CompletableFuture<RemotingCommand> answer = pull(header(0, 4, 32, LONG_POLL, null));
        store.found(4, 1, 40);
        runPullExecutor();

        assertThat(answer).isDone();
        assertThat(answer.join().code()).isEqualTo(ResponseCode.SUCCESS);
    }

    @Test
    void shouldAnswerSystemBusyWhenNoMorePullsMayBeHeld() {
        processor = processor(new PullRequestHold(clock, pullExecutor::add, 0, 0));
        store.answer(GetMessageStatus.NO_NEW_MESSAGE, 4, 0, 4);

        assertThat(pullNow(header(0, 4, 32, LONG_POLL, null)).code()).isEqualTo(ResponseCode.SYSTEM_BUSY);
    }

    @Test
    void shouldAnswerTopicNotExistForAnUnknownTopic() {
        PullMessageRequestHeader unknown = new PullMessageRequestHeader(GROUP, "TopicNone", 0, 0, 32,
                PullFlags.SUBSCRIPTION, 0L, 15_000L, "*", 0L, "TAG", null, "broker-a");

        assertThat(pullNow(unknown).code()).isEqualTo(ResponseCode.TOPIC_NOT_EXIST);
        assertThat(store.reads).isEmpty();
    }

    @Test
    void shouldRefuseAPullOfATopicThatIsNotReadable() {
        topics.putIfAbsent(new TopicConfig("TopicWriteOnly", 4, 4, Permission.WRITE, null, 0, false, Map.of()));
        PullMessageRequestHeader writeOnly = new PullMessageRequestHeader(GROUP, "TopicWriteOnly", 0, 0, 32,
                PullFlags.SUBSCRIPTION, 0L, 15_000L, "*", 0L, "TAG", null, "broker-a");

        assertThat(pullNow(writeOnly).code()).isEqualTo(ResponseCode.NO_PERMISSION);
    }

    @Test
    void shouldRefuseAQueueIdBeyondTheTopicsReadQueues() {
        assertThat(pullNow(header(4, 0, 32, PullFlags.SUBSCRIPTION, null)).code())
                .isEqualTo(ResponseCode.INVALID_PARAMETER);
    }

    @Test
    void shouldAnswerSubscriptionNotExistWhenThePullCarriesNoneAndNoHeartbeatGaveOne() {
        assertThat(pullNow(header(0, 0, 32, PullFlags.SUSPEND, null)).code())
                .isEqualTo(ResponseCode.SUBSCRIPTION_NOT_EXIST);
    }

    @Test
    void shouldRefuseASubscriptionThatDoesNotParse() {
        PullMessageRequestHeader sql = new PullMessageRequestHeader(GROUP, TOPIC, 0, 0, 32, PullFlags.SUBSCRIPTION,
                0L, 15_000L, "a >", 0L, "SQL92", null, "broker-a");

        assertThat(pullNow(sql).code()).isEqualTo(ResponseCode.SUBSCRIPTION_PARSE_FAILED);
    }

    @Test
    void shouldRefusePullSettingsThatAreNotPositiveNamingEachValue() {
        assertThatThrownBy(() -> new PullSettings(0, 1024, 30_000)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxPullMessages=0");
        assertThatThrownBy(() -> new PullSettings(32, -1, 30_000)).hasMessageContaining("defaultMaxBytes=-1");
        assertThatThrownBy(() -> new PullSettings(32, 1024, -5)).hasMessageContaining("maxSuspendMillis=-5");
    }
}
