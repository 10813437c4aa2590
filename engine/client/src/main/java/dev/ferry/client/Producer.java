package dev.ferry.client;

import dev.ferry.api.BrokerException;
import dev.ferry.api.FerryException;
import dev.ferry.api.InvalidMessageException;
import dev.ferry.api.Message;
import dev.ferry.api.MessageQueue;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.api.Replies;
import dev.ferry.api.RetriableException;
import dev.ferry.api.SendResult;
import dev.ferry.api.SendStatus;
import dev.ferry.format.MessageProperties;
import dev.ferry.format.SysFlags;
import dev.ferry.remoting.RemoteChannel;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.header.CheckTransactionStateRequestHeader;
import dev.ferry.remoting.protocol.header.SendMessageRequestHeaderV2;
import dev.ferry.remoting.protocol.header.SendMessageResponseHeader;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Sends messages of one producer group: synchronously, asynchronously, oneway, in batches, ordered by a
 * sharding key, delayed. Created by {@link FerryClient#producer}. Thread-safe.
 *
 * <p>A message goes to the next queue in round-robin order, skipping brokers that recently failed. A failed
 * synchronous or asynchronous send is retried up to {@link ProducerConfig#retriesWhenSendFailed()} times on
 * another broker when the failure is retriable, within {@link ProducerConfig#sendTimeout()}; the route is
 * re-read after each failure. Oneway and sharding-key sends are not retried on another queue.
 */
public final class Producer implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Producer.class.getName());
    /** sysFlag of a half message. */

    private final FerryClient client;
    private final ProducerConfig config;
    private final QueueSelector selector;
    /** Ends this producer's transactions; {@code null} for a producer without a transaction checker. */
    private final TransactionEnds transactions;
    /** Writes a trace of each send; {@code null} when tracing is off. */
    private final SendTraces traces;
    private volatile boolean closed;

    Producer(FerryClient client, ProducerConfig config, TransactionChecker checker) {
        this.client = client;
        this.config = Objects.requireNonNull(config, "config");
        this.selector = new QueueSelector(client.config().clock(), config.brokerFailurePause());
        client.heartbeats().addProducer(config.group());
        String traceTopic = config.traceTopic().orElse(null);
        TraceWriter traceWriter = traceTopic == null ? null
                : TraceWriter.started(client, config.group(), "PRODUCE", traceTopic);
        this.traces = traceWriter == null ? null : new SendTraces(traceWriter, config.group(),
                client.config().clock(), broker -> client.routes().brokerAddress(broker).orElse(null));
        this.transactions = checker == null ? null : new TransactionEnds(client, config, checker,
                traceWriter == null ? null
                        : new TransactionTraces(traceWriter, config.group(), client.config().clock(), traceTopic));
    }

    /** {@code send}, whose trace is written when this producer traces its sends. */
    private CompletableFuture<SendResult> traced(List<Message> messages, boolean half, long start,
                                                 CompletableFuture<SendResult> send) {
        return traces == null ? send : traces.traced(messages, half, start, send);
    }

    /**
     * Trace records of this producer's sends lost so far: its trace queue was full, or their trace message's send
     * failed. 0 when the producer does not trace.
     */
    public long tracesDropped() {
        return traces == null ? 0 : traces.writer().dropped();
    }

    /** The trace writer of this producer's sends, when it traces them. */
    Optional<TraceWriter> traceWriter() {
        return Optional.ofNullable(traces).map(SendTraces::writer);
    }

    /** The producer's settings. */
    public ProducerConfig config() {
        return config;
    }

    /**
     * Sends a message and waits for the broker's answer.
     *
     * @throws InvalidMessageException when the message is larger than the producer accepts
     * @throws FerryException when every attempt failed ({@link FerryException#isRetriable()} tells why)
     */
    public SendResult send(Message message) {
        return await(sendAsync(message));
    }

    /** Sends a message; the future completes with the broker's answer or a {@link FerryException}. */
    public CompletableFuture<SendResult> sendAsync(Message message) {
        long start = client.config().clock().nanos();
        try {
            PreparedSend prepared = prepare(List.of(message), false);
            return traced(List.of(message), false, start, recorded(prepared.topic(), start,
                    attempt(prepared, 0, null, config.sendTimeout())));
        } catch (FerryException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Tells the client's recorder how the send went and how long it took, all attempts together. */
    private CompletableFuture<SendResult> recorded(String topic, long start, CompletableFuture<SendResult> send) {
        ClientRecorder recorder = client.recorder();
        if (recorder == ClientRecorder.NONE) {
            return send;
        }
        return send.whenComplete((result, failure) -> recorder.sent(topic, failure == null,
                client.config().clock().nanos() - start));
    }

    /**
     * Sends {@code message} as a request and completes with its reply: the message carries a new
     * {@value MessageProperties#CORRELATION_ID}, this client's id as {@value MessageProperties#REPLY_TO_CLIENT} and
     * {@code timeout} as {@value MessageProperties#TTL}; a consumer answers with {@link dev.ferry.api.Replies#to}, and
     * the broker pushes the reply to this client. The send is retried like {@link #sendAsync(Message)}, within the
     * same {@code timeout}.
     *
     * <p>The future fails with a retriable {@link FerryException} when no reply came within {@code timeout} (or the
     * client already waits for as many replies as it may), with the send's failure when the request was not stored,
     * and with a {@link FerryException} when the client closes first.
     */
    public CompletableFuture<ReceivedMessage> request(Message message, Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("a request's timeout must be positive, not " + timeout);
        }
        long start = client.config().clock().nanos();
        String correlationId = UUID.randomUUID().toString();
        PreparedSend prepared;
        try {
            prepared = prepare(List.of(message), false, Map.of(MessageProperties.CORRELATION_ID, correlationId,
                    MessageProperties.REPLY_TO_CLIENT, client.clientId(), MessageProperties.TTL,
                    Long.toString(timeout.toMillis())));
        } catch (FerryException e) {
            return CompletableFuture.failedFuture(e);
        }
        CompletableFuture<ReceivedMessage> reply = client.replies().await(correlationId, timeout);
        if (reply.isDone()) {
            return reply;
        }
        CompletableFuture<Void> known;
        try {
            known = client.heartbeats().greeted(route(prepared.topic()).brokerAddresses().values(),
                    client.scheduler());
        } catch (FerryException e) {
            known = CompletableFuture.failedFuture(e);
        }
        known.thenCompose(greeted -> recorded(prepared.topic(), start, attempt(prepared, 0, null,
                timeout.minusNanos(client.config().clock().nanos() - start))))
                .whenComplete((sent, failure) -> {
                    if (failure != null) {
                        client.replies().fail(correlationId, WireErrors.fromFailure(failure, "request to '"
                                + prepared.topic() + "'"));
                    }
                });
        return reply;
    }

    /** Sends a message without waiting for, or getting, an answer; never retried. */
    public void sendOneway(Message message) {
        PreparedSend prepared = prepare(List.of(message), false);
        TopicRoute route = route(prepared.topic());
        MessageQueue queue = selector.select(route, null);
        RemotingCommand request = request(prepared, queue, true);
        try {
            client.remoting().invokeOneway(address(route, queue), request, config.sendTimeout());
        } catch (RuntimeException e) {
            throw WireErrors.fromFailure(e, "oneway send to " + queue);
        }
    }

    /**
     * Sends messages of one topic as one batch (SEND_BATCH_MESSAGE): they are stored together in one queue.
     *
     * @throws InvalidMessageException when the batch is empty, mixes topics, has delayed messages (a delay level, a
     *         delivery time or a delay) or is too big
     */
    public SendResult send(List<Message> batch) {
        return await(sendAsync(batch));
    }

    /** Sends a batch asynchronously; see {@link #send(List)}. */
    public CompletableFuture<SendResult> sendAsync(List<Message> batch) {
        long start = client.config().clock().nanos();
        try {
            PreparedSend prepared = prepare(batch, false);
            return traced(batch, false, start, recorded(prepared.topic(), start,
                    attempt(prepared, 0, null, config.sendTimeout())));
        } catch (FerryException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Sends a message to the queue its sharding key maps to: messages with the same key go to the same
     * queue, in order, as long as the topic's queues do not change. Not retried on another queue.
     */
    public SendResult send(Message message, String shardingKey) {
        Objects.requireNonNull(shardingKey, "shardingKey");
        long start = client.config().clock().nanos();
        PreparedSend prepared = prepare(List.of(message), false);
        TopicRoute route = route(prepared.topic());
        MessageQueue queue = selector.selectBySharding(route, shardingKey);
        return await(traced(List.of(message), false, start, recorded(prepared.topic(), start,
                sendTo(prepared, route, queue, config.sendTimeout()))));
    }

    /**
     * Sends {@code message} as a half message (stored, not yet delivered), runs {@code transaction}, and
     * tells the broker to deliver the message (COMMIT), drop it (ROLLBACK), or ask this producer group's
     * {@link TransactionChecker} later (UNKNOWN). Needs a producer created with a checker.
     *
     * @throws IllegalStateException when the producer has no {@link TransactionChecker}
     * @throws FerryException when the half message could not be stored (the transaction did not run)
     */
    public TransactionSendResult sendInTransaction(Message message, LocalTransaction transaction) {
        Objects.requireNonNull(transaction, "transaction");
        requireTransactional();
        PreparedSend prepared = prepare(List.of(message), true);
        SendResult half = await(traced(List.of(message), true, client.config().clock().nanos(),
                attempt(prepared, 0, null, config.sendTimeout())));
        TransactionState state;
        try {
            state = transaction.execute(message);
        } catch (Exception e) {
            LOG.log(Level.WARNING, "local transaction of " + half.msgId() + " failed; its outcome is left to the "
                    + "transaction check", e);
            state = TransactionState.UNKNOWN;
        }
        if (state == null) {
            state = TransactionState.UNKNOWN;
        }
        transactions.end(message, half, state);
        return new TransactionSendResult(half, state);
    }

    /**
     * Stores {@code message} as a half message and returns it, leaving its transaction open: it is delivered once
     * {@link #endTransaction ended} with COMMIT, and until then the broker asks this group's
     * {@link TransactionChecker} about it after its transaction timeout. For a transaction manager that decides later.
     * A delay level is dropped, as Apache's producer drops it; a delivery time or delay is kept, and the broker times
     * the message from the commit.
     *
     * @throws IllegalStateException when the producer has no {@link TransactionChecker}
     * @throws FerryException when the half message could not be stored
     */
    public HalfMessage sendHalf(Message message) {
        return sendHalf(message, null);
    }

    /**
     * Like {@link #sendHalf(Message)}, into the queue {@code shardingKey} maps to (as {@link #send(Message, String)}
     * chooses it), where the message is delivered on commit; {@code null} for round-robin.
     */
    public HalfMessage sendHalf(Message message, String shardingKey) {
        requireTransactional();
        long start = client.config().clock().nanos();
        PreparedSend prepared = prepare(List.of(message), true);
        SendResult half;
        if (shardingKey == null) {
            half = await(traced(List.of(message), true, start, attempt(prepared, 0, null, config.sendTimeout())));
        } else {
            TopicRoute route = route(prepared.topic());
            half = await(traced(List.of(message), true, start, sendTo(prepared, route,
                    selector.selectBySharding(route, shardingKey), config.sendTimeout())));
        }
        Map<String, String> properties = new HashMap<>(message.properties());
        properties.put(MessageProperties.UNIQ_KEY, half.msgId());
        properties.put(MessageProperties.PRODUCER_GROUP, config.group());
        message.tags().ifPresent(tags -> properties.put(MessageProperties.TAGS, tags));
        String keys = SendTraces.keys(message);
        if (keys != null) {
            properties.put(MessageProperties.KEYS, keys);
        }
        HalfMessage stored = new HalfMessage(half.messageQueue().brokerName(), half.messageQueue().topic(),
                half.queueId(), half.queueOffset(), TransactionEnds.commitLogOffset(half.offsetMsgId()), half.msgId(),
                properties);
        if (half.status() != SendStatus.SEND_OK) {
            // stored, but not as durable as asked: a transaction must not count on it
            try {
                transactions.endConfirmed(stored, TransactionState.ROLLBACK);
            } catch (RuntimeException e) {
                LOG.log(Level.DEBUG, "rolling back half message " + half.msgId() + " failed; the broker's check "
                        + "will ask: " + e.getMessage());
            }
            throw new RetriableException("half message " + half.msgId() + " to '" + message.topic() + "' was stored "
                    + "but answered " + half.status() + "; rolled back");
        }
        return stored;
    }

    /**
     * Commits (delivers) or rolls back (discards) a half message of this producer's group, and waits until the broker
     * confirms the decision is stored. Ending a message this producer's client already ended does nothing.
     *
     * @throws IllegalArgumentException for {@link TransactionState#UNKNOWN}
     * @throws FerryException when the broker was not reached or refused: the transaction is still open
     */
    public void endTransaction(HalfMessage half, TransactionState state) {
        requireTransactional();
        transactions.endConfirmed(Objects.requireNonNull(half, "half"), Objects.requireNonNull(state, "state"));
    }

    /**
     * The half messages of this producer's group that carry {@code property} and whose transaction no broker has
     * seen decided, on every master the name servers know (their latest copy, when a broker's check made two):
     * what recovery after a crash must end.
     *
     * @throws FerryException when a name server or broker cannot be read
     */
    public List<HalfMessage> undecidedHalfMessages(String property) {
        requireTransactional();
        return client.halfMessageScan().undecided(config.group(), Objects.requireNonNull(property, "property"))
                .stream().filter(half -> !transactions.ended(half)).toList();
    }

    private void requireTransactional() {
        if (transactions == null) {
            throw new IllegalStateException("producer " + config.group()
                    + " has no TransactionChecker; create it with FerryClient.producer(config, checker)");
        }
    }

    /**
     * Answers a broker's CHECK_TRANSACTION_STATE for this producer's group.
     *
     * @param header the request's header
     * @param message the half message
     * @param channel the connection to answer on
     */
    void check(CheckTransactionStateRequestHeader header, ReceivedMessage message, RemoteChannel channel) {
        if (transactions != null && !closed) {
            transactions.check(header, message, channel);
        }
    }

    /** One attempt, then on a retriable failure the next one on another broker while time and retries remain. */
    private CompletableFuture<SendResult> attempt(PreparedSend prepared, int attempt, String avoidBroker,
                                                  Duration budget) {
        long start = client.config().clock().nanos();
        TopicRoute route;
        MessageQueue queue;
        try {
            route = route(prepared.topic());
            queue = selector.select(route, avoidBroker);
        } catch (FerryException e) {
            return CompletableFuture.failedFuture(e);
        }
        return sendTo(prepared, route, queue, budget).handle((result, failure) -> {
            if (failure == null) {
                return CompletableFuture.completedFuture(result);
            }
            FerryException error = WireErrors.fromFailure(failure, "send to " + queue);
            Duration left = budget.minusNanos(client.config().clock().nanos() - start);
            if (!error.isRetriable() || attempt >= config.retriesWhenSendFailed() || left.toMillis() <= 0) {
                return CompletableFuture.<SendResult>failedFuture(error);
            }
            LOG.log(Level.DEBUG, "send attempt " + (attempt + 1) + " to " + queue + " failed, retrying: "
                    + error.getMessage());
            refreshRouteQuietly(prepared.topic());
            return attempt(prepared, attempt + 1, queue.brokerName(), left);
        }).thenCompose(f -> f);
    }

    private CompletableFuture<SendResult> sendTo(PreparedSend prepared, TopicRoute route, MessageQueue queue,
                                                 Duration timeout) {
        String address;
        try {
            address = address(route, queue);
        } catch (FerryException e) {
            return CompletableFuture.failedFuture(e);
        }
        RemotingCommand request = request(prepared, queue, false);
        return client.remoting().invokeAsync(address, request, timeout).handle((response, failure) -> {
            if (failure != null) {
                selector.brokerFailed(queue.brokerName());
                throw WireErrors.fromFailure(failure, "send to " + queue + " at " + address);
            }
            SendStatus status = statusOf(response, queue);
            selector.brokerSucceeded(queue.brokerName());
            client.heartbeats().greet(address, client.scheduler());
            SendMessageResponseHeader header = response.header(SendMessageResponseHeader.class);
            return new SendResult(status, prepared.msgId(), header.msgId(), new MessageQueue(queue.topic(),
                    queue.brokerName(), header.queueId()), header.queueOffset());
        });
    }

    private SendStatus statusOf(RemotingCommand response, MessageQueue queue) {
        return switch (response.code()) {
            case ResponseCode.SUCCESS -> SendStatus.SEND_OK;
            case ResponseCode.FLUSH_DISK_TIMEOUT -> SendStatus.FLUSH_DISK_TIMEOUT;
            case ResponseCode.FLUSH_SLAVE_TIMEOUT -> SendStatus.FLUSH_SLAVE_TIMEOUT;
            case ResponseCode.SLAVE_NOT_AVAILABLE -> SendStatus.SLAVE_NOT_AVAILABLE;
            default -> {
                BrokerException error = WireErrors.fromResponse(response, "send to " + queue);
                if (error.isRetriable()) {
                    selector.brokerFailed(queue.brokerName());
                }
                throw error;
            }
        };
    }

    private TopicRoute route(String topic) {
        return client.routes().publishRoute(topic, ProducerConfig.AUTO_CREATE_TOPIC, config.defaultTopicQueueNums());
    }

    private String address(TopicRoute route, MessageQueue queue) {
        String address = route.brokerAddresses().get(queue.brokerName());
        if (address == null) {
            throw new RetriableException("no master address for broker " + queue.brokerName() + " of topic "
                    + queue.topic());
        }
        return address;
    }

    private void refreshRouteQuietly(String topic) {
        try {
            client.routes().refresh(topic);
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "route refresh of " + topic + " after a failed send failed: " + e.getMessage());
        }
    }

    /** Validates and encodes what every attempt sends alike. */
    private PreparedSend prepare(List<Message> messages, boolean halfMessage) {
        return prepare(messages, halfMessage, Map.of());
    }

    /** As {@link #prepare(List, boolean)}, a single message carrying {@code extra} properties too. */
    private PreparedSend prepare(List<Message> messages, boolean halfMessage, Map<String, String> extra) {
        if (closed) {
            throw new FerryException("producer " + config.group() + " is closed");
        }
        if (messages == null || messages.isEmpty()) {
            throw new InvalidMessageException("nothing to send: the batch is empty");
        }
        String topic = messages.get(0).topic();
        long totalBody = 0;
        for (Message message : messages) {
            Objects.requireNonNull(message, "message");
            if (!message.topic().equals(topic)) {
                throw new InvalidMessageException("a batch must have one topic, found '" + topic + "' and '"
                        + message.topic() + "'");
            }
            if (messages.size() > 1 && message.isDelayed()) {
                throw new InvalidMessageException("batched messages cannot be delayed: a message of the batch to '"
                        + topic + "' has " + delayOf(message) + "; send it on its own");
            }
            totalBody += message.bodySize();
        }
        if (totalBody > config.maxMessageSize()) {
            throw new InvalidMessageException("the " + (messages.size() > 1 ? "batch" : "message") + " to '" + topic
                    + "' has " + totalBody + " bytes of body, more than the producer's maxMessageSize "
                    + config.maxMessageSize());
        }
        if (messages.size() == 1) {
            String uniqKey = client.uniqueIds().next();
            Map<String, String> properties = MessageEncoder.properties(messages.get(0), uniqKey);
            properties.putAll(extra);
            int sysFlag = 0;
            if (halfMessage) {
                properties.remove(MessageProperties.DELAY);
                properties.put(MessageProperties.TRANSACTION_PREPARED, "true");
                properties.put(MessageProperties.PRODUCER_GROUP, config.group());
                sysFlag = SysFlags.TRANSACTION_PREPARED_TYPE;
            }
            MessageEncoder.Encoded encoded = MessageEncoder.single(messages.get(0), properties,
                    config.compressThreshold());
            return new PreparedSend(topic, uniqKey, encoded.body(), encoded.sysFlag() | sysFlag,
                    encoded.properties(), false, Replies.isReply(messages.get(0)));
        }
        List<Map<String, String>> properties = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        for (Message message : messages) {
            String uniqKey = client.uniqueIds().next();
            ids.add(uniqKey);
            properties.add(MessageEncoder.properties(message, uniqKey));
        }
        byte[] body = MessageEncoder.batchBody(messages, properties);
        // No UNIQ_KEY for the batch as a whole (Apache's producer sends one): an Apache broker appends the batch's
        // properties to every message's, and a batch id would then replace each message's own.
        String batchProperties = MessageProperties.format(Map.of(MessageProperties.WAIT, "true"));
        return new PreparedSend(topic, String.join(",", ids), body, 0, batchProperties, true, false);
    }

    private static String delayOf(Message message) {
        return message.deliveryTime().map(time -> "deliverAt " + time)
                .or(() -> message.deliveryDelay().map(delay -> "deliverAfter " + delay))
                .orElse("delayLevel " + message.delayLevel());
    }

    /** What one send carries, ready to address to a queue; a reply is pushed to its requester, not stored. */
    private record PreparedSend(String topic, String msgId, byte[] body, int sysFlag, String properties,
                                boolean batch, boolean reply) {
    }

    private RemotingCommand request(PreparedSend prepared, MessageQueue queue, boolean oneway) {
        SendMessageRequestHeaderV2 header = new SendMessageRequestHeaderV2(config.group(), prepared.topic(),
                ProducerConfig.AUTO_CREATE_TOPIC, config.defaultTopicQueueNums(), queue.queueId(), prepared.sysFlag(),
                client.config().clock().millis(), 0, prepared.properties(), 0, false, null, prepared.batch(),
                queue.brokerName());
        int code = prepared.batch() ? RequestCode.SEND_BATCH_MESSAGE
                : prepared.reply() ? RequestCode.SEND_REPLY_MESSAGE_V2 : RequestCode.SEND_MESSAGE_V2;
        return RemotingCommand.request(code, header).body(prepared.body()).oneway(oneway).build();
    }

    private static <T> T await(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            throw WireErrors.fromFailure(e, "send failed");
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (transactions != null) {
            transactions.close();
        }
        if (traces != null) {
            traces.close();
        }
        client.heartbeats().removeProducer(config.group());
        client.forget(this);
    }

    @Override
    public String toString() {
        return "Producer[" + config.group() + "]";
    }
}
