package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.format.BatchBody;
import dev.ferry.format.DelayLevels;
import dev.ferry.format.ManualClock;
import dev.ferry.format.MessageProperties;
import dev.ferry.format.SysFlags;
import dev.ferry.format.SystemTopics;
import dev.ferry.remoting.protocol.BadRequestException;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.Permission;
import dev.ferry.remoting.protocol.body.TopicConfig;
import dev.ferry.remoting.protocol.header.SendMessageRequestHeader;
import dev.ferry.remoting.protocol.header.SendMessageResponseHeader;
import dev.ferry.server.replica.ReplicaOutcome;
import dev.ferry.server.replica.ReplicaWait;
import dev.ferry.server.timer.TimerRouting;
import dev.ferry.server.timer.TimerSettings;
import dev.ferry.store.AppendStatus;
import dev.ferry.store.MessageToStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The send processor against a fake store: what it refuses, what it stores, and what it answers. */
class SendMessageProcessorTest {
    private static final String TOPIC = "TopicSend";
    private static final byte[] BODY = "hello".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(1_000_000);
    private final FakeMessageWriter store = new FakeMessageWriter();
    private final TopicCounters counters = new TopicCounters();
    private final AtomicInteger topicSaves = new AtomicInteger();
    private final AtomicInteger appendedHints = new AtomicInteger();
    private SendSettings settings = new SendSettings("ClusterA", true, 4, 1024);
    private ReplicaWait replicas = ReplicaWait.NONE;
    private TopicConfigTable topics;
    private SubscriptionGroupTable groups;

    @BeforeEach
    void tables() {
        topics = new TopicConfigTable(dir, clock, 100);
        groups = new SubscriptionGroupTable(dir, clock, 100, 16, List.of());
        topics.putIfAbsent(TopicConfig.of(TOPIC, 4));
    }

    private SendMessageProcessor processor() {
        RetryRouting retries = new RetryRouting(16, groups::get, topics, topicSaves::incrementAndGet);
        SendRoute route = SendRoute.forSends(retries, counters, DelayLevels.parse("1s 5s 10s"),
                new TimerRouting(TimerSettings.defaults(), clock, slot -> 0), () -> {
                    if (topics.ensureTransactionTopics()) {
                        topicSaves.incrementAndGet();
                    }
                });
        return new SendMessageProcessor(() -> settings, store, topics, topicSaves::incrementAndGet, groups, route,
                counters, (end, masterEnd) -> replicas.replicated(end, masterEnd), appendedHints::incrementAndGet,
                FakeMessageWriter.STORE_HOST);
    }

    private static SendMessageRequestHeader header(String topic, int queueId, int sysFlag, String properties) {
        return new SendMessageRequestHeader("PG", topic, SystemTopics.AUTO_CREATE_TOPIC, 4, queueId, sysFlag,
                1_000L, 0, properties, 0, false, false, null, "broker-a");
    }

    /** A batch as Apache's client sends it with full names: SEND_MESSAGE with the batch flag. */
    private static RemotingCommand batch(String topic, int queueId, List<BatchBody.Item> items) {
        SendMessageRequestHeader header = new SendMessageRequestHeader("PG", topic, SystemTopics.AUTO_CREATE_TOPIC, 4,
                queueId, 0, 1_000L, 0, "", 0, false, true, null, "broker-a");
        return request(header, BatchBody.encode(items));
    }

    private static RemotingCommand request(SendMessageRequestHeader header, byte[] body) {
        return RemotingCommand.request(RequestCode.SEND_MESSAGE, header).body(body).build();
    }

    private RemotingCommand send(RemotingCommand request) {
        CompletableFuture<RemotingCommand> answer = Answers.of(processor()::process, request, "producer");
        assertThat(answer).as("answered at once").isDone();
        return answer.join();
    }

    private RemotingCommand send(String topic, String properties) {
        return send(request(header(topic, 0, 0, properties), BODY));
    }

    private static String properties(Map<String, String> pairs) {
        return MessageProperties.format(new java.util.LinkedHashMap<>(pairs));
    }

    @Test
    void shouldStoreAMessageStampedWithClusterRegionAndTraceSwitchAndAnswerItsOffsets() {
        RemotingCommand answer = send(TOPIC, properties(Map.of(MessageProperties.UNIQ_KEY, "U1")));

        assertThat(answer.code()).as(answer.remark()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(store.appended).singleElement().satisfies(stored -> {
            assertThat(stored.topic()).isEqualTo(TOPIC);
            assertThat(stored.body()).isEqualTo(BODY);
            assertThat(stored.storeHost()).isEqualTo(FakeMessageWriter.STORE_HOST);
            Map<String, String> stamped = MessageProperties.parse(stored.properties());
            assertThat(stamped).containsEntry(MessageProperties.CLUSTER, "ClusterA")
                    .containsEntry(MessageProperties.UNIQ_KEY, "U1")
                    .containsKeys(MessageProperties.MESSAGE_REGION, MessageProperties.TRACE_SWITCH);
        });
        SendMessageResponseHeader header = answer.header(SendMessageResponseHeader.class);
        assertThat(header.msgId()).isNotBlank();
        assertThat(header.queueOffset()).isZero();
        assertThat(header.transactionId()).isEqualTo("U1");
        assertThat(appendedHints).as("replication told").hasValue(1);
        assertThat(counters.inByTopic()).containsEntry(TOPIC, 1L);
    }

    @Test
    void shouldRefuseABrokerOnlyTopicWithNoPermission() {
        assertThat(send(SystemTopics.SCHEDULE_TOPIC, "").code()).isEqualTo(ResponseCode.NO_PERMISSION);
        assertThat(store.appended).isEmpty();
    }

    @Test
    void shouldRejectAnInvalidTopicNameAsAnInvalidParameter() {
        assertThatThrownBy(() -> send("bad topic!", "")).isInstanceOfSatisfying(BadRequestException.class,
                e -> assertThat(e.responseCode()).isEqualTo(ResponseCode.INVALID_PARAMETER));
        assertThat(store.appended).isEmpty();
    }

    @Test
    void shouldAnswerTopicNotExistWhenAutoCreationIsOff() {
        settings = new SendSettings("ClusterA", false, 4, 1024);

        assertThat(send("TopicUnknown", "").code()).isEqualTo(ResponseCode.TOPIC_NOT_EXIST);
        assertThat(topics.contains("TopicUnknown")).isFalse();
    }

    @Test
    void shouldCreateATopicFromTheDefaultTopicOnFirstSendWhenAllowed() {
        RemotingCommand answer = send("TopicNew", "");

        assertThat(answer.code()).as(answer.remark()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(topics.get("TopicNew")).map(TopicConfig::writeQueueNums).contains(4);
        assertThat(topicSaves).hasValue(1);
    }

    @Test
    void shouldRefuseATopicThatIsNotWritableWithNoPermission() {
        topics.putIfAbsent(new TopicConfig("TopicReadOnly", 4, 4, Permission.READ, null, 0, false, Map.of()));

        assertThat(send("TopicReadOnly", "").code()).isEqualTo(ResponseCode.NO_PERMISSION);
        assertThat(store.appended).isEmpty();
    }

    @Test
    void shouldRefuseAQueueIdBeyondTheTopicsWriteQueuesAsAnInvalidParameter() {
        assertThat(send(request(header(TOPIC, 4, 0, ""), BODY)).code()).isEqualTo(ResponseCode.INVALID_PARAMETER);
    }

    @Test
    void shouldRefuseAnEmptyBodyAsAnIllegalMessage() {
        assertThat(send(request(header(TOPIC, 0, 0, ""), new byte[0])).code())
                .isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
    }

    @Test
    void shouldRefuseABodyOverTheMaxMessageSizeAsAnIllegalMessage() {
        settings = new SendSettings("ClusterA", true, 4, 4);

        RemotingCommand answer = send(TOPIC, "");

        assertThat(answer.code()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
        assertThat(answer.remark()).contains("over the limit of 4 bytes");
        assertThat(store.appended).isEmpty();
    }

    @Test
    void shouldAnswerServiceNotAvailableWhenTheStoreRefusesForAFullDisk() {
        store.refuseWith(AppendStatus.DISK_FULL);

        RemotingCommand answer = send(TOPIC, "");

        assertThat(answer.code()).isEqualTo(ResponseCode.SERVICE_NOT_AVAILABLE);
        assertThat(answer.remark()).contains("DISK_FULL");
        assertThat(counters.allIn()).as("nothing counted").isZero();
    }

    @Test
    void shouldAnswerMessageIllegalWhenTheStoreFindsTheMessageTooLarge() {
        store.refuseWith(AppendStatus.PROPERTIES_TOO_LARGE);

        assertThat(send(TOPIC, "").code()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
    }

    @Test
    void shouldAnswerOnlyOnceTheStoreReportsTheMessageDurable() {
        store.holdAnswers();

        CompletableFuture<RemotingCommand> answer = Answers.of(processor()::process,
                request(header(TOPIC, 0, 0, ""), BODY), "producer");

        assertThat(answer).as("waits for the force").isNotDone();
        store.held.get(0).complete(AppendStatus.FLUSH_DISK_TIMEOUT);
        assertThat(answer).isDone();
        assertThat(answer.join().code()).isEqualTo(ResponseCode.FLUSH_DISK_TIMEOUT);
    }

    @Test
    void shouldAnswerFlushSlaveTimeoutWhenNoSlaveConfirmedInTime() {
        replicas = (end, masterEnd) -> CompletableFuture.completedFuture(ReplicaOutcome.TIMED_OUT);

        assertThat(send(TOPIC, "").code()).isEqualTo(ResponseCode.FLUSH_SLAVE_TIMEOUT);
        assertThat(store.appended).as("stored all the same").hasSize(1);
    }

    @Test
    void shouldStoreEachMessageOfABatchWithItsOwnFlagAndProperties() {
        RemotingCommand request = batch(TOPIC, 1, List.of(new BatchBody.Item(1, BODY, properties(Map.of("KEYS",
                "a"))), new BatchBody.Item(2, BODY, properties(Map.of("KEYS", "b")))));

        RemotingCommand answer = send(request);

        assertThat(answer.code()).as(answer.remark()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(store.appended).extracting(MessageToStore::flag).containsExactly(1, 2);
        assertThat(store.appended).extracting(MessageToStore::queueId).containsOnly(1);
        assertThat(store.appended).extracting(m -> MessageProperties.find(m.properties(), "KEYS"))
                .containsExactly("a", "b");
        assertThat(answer.header(SendMessageResponseHeader.class).msgId().split(",")).hasSize(2);
    }

    @Test
    void shouldRefuseABatchHoldingATimerMessage() {
        RemotingCommand request = batch(TOPIC, 0, List.of(new BatchBody.Item(0, BODY,
                properties(Map.of(MessageProperties.TIMER_DELAY_SEC, "10")))));

        assertThat(send(request).code()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
        assertThat(store.appended).isEmpty();
    }

    @Test
    void shouldRefuseABatchToARetryTopic() {
        RemotingCommand request = batch(SystemTopics.retryTopic("CG"), 0, List.of(new BatchBody.Item(0, BODY, "")));

        assertThat(send(request).code()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
    }

    @Test
    void shouldStoreAPreparedMessageInTheHalfTopicAndCreateTheTransactionTopics() {
        RemotingCommand answer = send(request(header(TOPIC, 2, SysFlags.TRANSACTION_PREPARED_TYPE, ""), BODY));

        assertThat(answer.code()).as(answer.remark()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(store.appended).singleElement().satisfies(half -> {
            assertThat(half.topic()).isEqualTo(SystemTopics.TRANSACTION_HALF_TOPIC);
            assertThat(SysFlags.transactionType(half.sysFlag())).isEqualTo(SysFlags.TRANSACTION_NOT_TYPE);
            assertThat(MessageProperties.find(half.properties(), MessageProperties.REAL_TOPIC)).isEqualTo(TOPIC);
            assertThat(MessageProperties.find(half.properties(), MessageProperties.REAL_QUEUE_ID)).isEqualTo("2");
        });
        assertThat(topics.contains(SystemTopics.TRANSACTION_HALF_TOPIC)).isTrue();
    }

    @Test
    void shouldRefuseATimerMessageBeyondTheMaxDelayWithItsCode() {
        long tooFar = clock.millis() + TimerSettings.defaults().maxDelaySec() * 1000L + 60_000;

        RemotingCommand answer = send(TOPIC, properties(Map.of(MessageProperties.TIMER_DELIVER_MS,
                Long.toString(tooFar))));

        assertThat(answer.code()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
        assertThat(answer.remark()).startsWith("timer message illegal");
        assertThat(store.appended).isEmpty();
    }

    @Test
    void shouldSendARetryPastItsGroupsLimitToTheDeadLetterTopic() {
        SendMessageRequestHeader retry = new SendMessageRequestHeader("PG", SystemTopics.retryTopic("CG"),
                SystemTopics.AUTO_CREATE_TOPIC, 4, 0, 0, 1_000L, 0, "", 3, false, false, 2, "broker-a");

        RemotingCommand answer = send(request(retry, BODY));

        assertThat(answer.code()).as(answer.remark()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(store.appended).singleElement().extracting(MessageToStore::topic)
                .isEqualTo(SystemTopics.deadLetterTopic("CG"));
        assertThat(counters.deadLettered()).containsKey(SystemTopics.retryTopic("CG") + "@CG");
        assertThat(groups.get("CG")).as("the group was created by the send").isPresent();
    }

    @Test
    void shouldRefuseARetryOfAGroupThatCannotBeCreated() {
        groups = new SubscriptionGroupTable(dir.resolve("none"), clock, 100, 16, List.of(), false);

        assertThat(send(SystemTopics.retryTopic("CG"), "").code())
                .isEqualTo(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST);
        assertThat(store.appended).isEmpty();
    }
}
