package dev.ferry.client;

import dev.ferry.api.BatchMessageListener;
import dev.ferry.api.BrokerException;
import dev.ferry.api.MessageListener;
import dev.ferry.api.MessageQueue;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.format.MessageProperties;
import dev.ferry.format.UniqueMessageIds;
import dev.ferry.remoting.NettyThreadLocals;
import dev.ferry.remoting.endpoint.RemotingClient;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestContext;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.body.ConsumeMessageDirectlyResult;
import dev.ferry.remoting.protocol.body.ConsumerStatusBody;
import dev.ferry.remoting.protocol.body.MessageQueueBody;
import dev.ferry.remoting.protocol.body.ResetOffsetBody;
import dev.ferry.remoting.protocol.header.CheckTransactionStateRequestHeader;
import dev.ferry.remoting.protocol.header.ConsumeMessageDirectlyRequestHeader;
import dev.ferry.remoting.protocol.header.ConsumerRunningInfoRequestHeader;
import dev.ferry.remoting.protocol.header.ConsumerStatusRequestHeader;
import dev.ferry.remoting.protocol.header.ResetOffsetRequestHeader;
import dev.ferry.remoting.protocol.header.NotifyConsumerIdsChangedRequestHeader;
import dev.ferry.remoting.protocol.header.QueryConsumerOffsetRequestHeader;
import dev.ferry.remoting.protocol.header.ReplyMessageRequestHeader;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * One client instance: the connections, scheduler and route cache shared by the producers and consumers
 * created from it. Create one per configuration (per cluster); two clients in one JVM share nothing.
 *
 * <p>The scheduler re-reads routes every 30 s and heartbeats every broker every 30 s; consumers add their
 * rebalance and offset-persisting jobs. {@link #close()} closes the producers and consumers (consumers
 * persist their offsets, every group unregisters from the brokers), then the threads and connections.
 * Thread-safe.
 */
public final class FerryClient implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(FerryClient.class.getName());

    private final ClientConfig config;
    private final RemotingClient remoting;
    private final BodyCodec codec = new BodyCodec();
    private final BrokerCalls calls;
    private final RouteCache routes;
    private final HeartbeatService heartbeats;
    private final UniqueMessageIds uniqueIds;
    private final MessageDecoder decoder;
    private final ThreadFactory threads;
    private final ScheduledThreadPoolExecutor scheduler;
    /** Where admin tools' requests to this client run (one at a time; a few may wait). */
    private final ThreadPoolExecutor adminExecutor;
    private final ClientPlugins plugins;
    /** What sends and consumption are recorded to: nothing unless metrics are on. */
    private final ClientRecorder recorder;
    private final ClientMetrics metrics;
    private final List<AutoCloseable> members = new CopyOnWriteArrayList<>();
    /** Producers with a transaction checker, by group: where check-backs go. */
    private final Map<String, Producer> transactional = new ConcurrentHashMap<>();
    /** Requests of this client's producers waiting for their replies. */
    private final PendingReplies replies;
    private volatile boolean closed;

    /** Creates the client and starts its periodic route refresh and heartbeats. */
    public FerryClient(ClientConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        this.threads = NettyThreadLocals.clearedAfterEachTask(config.threadFactory());
        this.remoting = new RemotingClient(config.remoting(), threads, config.clock());
        this.calls = BrokerCalls.over(remoting);
        this.routes = new RouteCache(calls, config.nameServerAddresses(), config.requestTimeout(), codec);
        this.heartbeats = new HeartbeatService(config.clientId(), calls, routes, codec, config.requestTimeout());
        // the month's start in the default zone, as Apache's client takes it, so admin tools read the time from an id
        this.uniqueIds = new UniqueMessageIds(LocalAddress.ipv4Bytes(config.clientIp()), ProcessHandle.current().pid(),
                ThreadLocalRandom.current().nextInt(), config.clock(), ZoneId.systemDefault());
        this.decoder = new MessageDecoder(config.maxBodySize());
        this.plugins = new ClientPlugins(config.pluginClassLoaders());
        // only now is the metrics library loaded: a client without metrics runs without it
        this.metrics = config.metrics() ? new ClientMetrics(config.clientId(), heartbeats::consumers) : null;
        this.recorder = metrics != null ? metrics : ClientRecorder.NONE;
        this.scheduler = new ScheduledThreadPoolExecutor(2, threads);
        scheduler.setRemoveOnCancelPolicy(true);
        this.adminExecutor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(16),
                threads);
        remoting.registerProcessor(RequestCode.NOTIFY_CONSUMER_IDS_CHANGED, (context, request) -> {
            String group = request.header(NotifyConsumerIdsChangedRequestHeader.class).consumerGroup();
            heartbeats.consumer(group).ifPresent(GroupMember::rebalanceSoon);
            return null;
        }, scheduler);
        remoting.registerProcessor(RequestCode.CHECK_TRANSACTION_STATE, (context, request) -> {
            CheckTransactionStateRequestHeader header = request.header(CheckTransactionStateRequestHeader.class);
            List<ReceivedMessage> messages = decoder.decodeAll(request.body(),
                    String.valueOf(header.brokerName()));
            if (messages.size() != 1) {
                LOG.log(Level.WARNING, "transaction check from " + header.brokerName() + " carries "
                        + messages.size() + " messages instead of one; ignored");
                return null;
            }
            ReceivedMessage message = messages.get(0);
            String group = message.property(MessageProperties.PRODUCER_GROUP).orElse("");
            Producer producer = transactional.get(group);
            if (producer != null) {
                producer.check(header, message, context.channel());
            } else {
                LOG.log(Level.WARNING, "transaction check for unknown producer group '" + group + "'");
            }
            return null;
        }, scheduler);
        this.replies = new PendingReplies(config.clock(), MAX_PENDING_REPLIES);
        remoting.registerProcessor(RequestCode.PUSH_REPLY_MESSAGE_TO_CLIENT, this::replyPushed, scheduler);
        every(REPLY_SWEEP, replies::expire);
        registerAdminAnswers();
        every(config.routeRefreshInterval(), this::refreshRoutes);
        every(config.heartbeatInterval(), heartbeats::sendToAllBrokers);
    }

    /** The most requests a client's producers may wait for replies to at once. */
    static final int MAX_PENDING_REPLIES = 10_000;
    /** How often requests past their timeout are failed: the most a timeout is late by. */
    private static final Duration REPLY_SWEEP = Duration.ofMillis(100);

    /**
     * A broker pushed the reply to a request: it completes the request it answers, or is dropped (answered SUCCESS
     * either way, as Apache's client answers). A push that cannot be read is answered SYSTEM_ERROR.
     */
    private RemotingCommand replyPushed(RequestContext context, RemotingCommand request) {
        try {
            ReplyMessageRequestHeader header = request.header(ReplyMessageRequestHeader.class);
            ReceivedMessage reply = decoder.reply(header, request.body(), config.clock().millis());
            replies.complete(reply.property(MessageProperties.CORRELATION_ID).orElse(null), reply);
            return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build();
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "a reply pushed by " + context.channel() + " cannot be read: " + e.getMessage());
            return RemotingCommand.responseTo(request, ResponseCode.SYSTEM_ERROR).remark("process reply message fail")
                    .build();
        }
    }

    PendingReplies replies() {
        return replies;
    }

    /**
     * Answers what brokers ask on behalf of admin tools, as Apache's clients do: running info, offsets on a topic, an
     * offset reset and a message consumed directly. On an executor of their own, so a slow listener never holds up
     * the client's scheduler.
     */
    private void registerAdminAnswers() {
        remoting.registerProcessor(RequestCode.GET_CONSUMER_RUNNING_INFO, (context, request) -> {
            ConsumerRunningInfoRequestHeader h = request.header(ConsumerRunningInfoRequestHeader.class);
            return heartbeats.consumer(h.consumerGroup())
                    .map(member -> RemotingCommand.responseTo(request, ResponseCode.SUCCESS).body(codec.encode(
                            member.admin().runningInfo(Boolean.TRUE.equals(h.jstackEnable())))).build())
                    .orElseGet(() -> notHere(request, h.consumerGroup()));
        }, adminExecutor);
        remoting.registerProcessor(RequestCode.GET_CONSUMER_STATUS_FROM_CLIENT, (context, request) -> {
            ConsumerStatusRequestHeader h = request.header(ConsumerStatusRequestHeader.class);
            Map<MessageQueueBody, Long> offsets = heartbeats.consumer(h.group())
                    .map(member -> member.admin().offsets(h.topic())).orElse(Map.of());
            return RemotingCommand.responseTo(request, ResponseCode.SUCCESS)
                    .body(codec.encode(new ConsumerStatusBody(offsets, Map.of()))).build();
        }, adminExecutor);
        remoting.registerProcessor(RequestCode.RESET_CONSUMER_CLIENT_OFFSET, (context, request) -> {
            ResetOffsetRequestHeader h = request.header(ResetOffsetRequestHeader.class);
            if (request.body() != null && request.body().length > 0) {
                ResetOffsetBody body = codec.decode(request.body(), ResetOffsetBody.class);
                heartbeats.consumer(h.group()).ifPresent(member -> member.admin().resetOffsets(h.topic(),
                        body.offsetTable()));
            }
            return null; // a one-way notice, as Apache's brokers send it
        }, adminExecutor);
        remoting.registerProcessor(RequestCode.CONSUME_MESSAGE_DIRECTLY, (context, request) -> {
            ConsumeMessageDirectlyRequestHeader h = request.header(ConsumeMessageDirectlyRequestHeader.class);
            List<ReceivedMessage> messages = decoder.decodeAll(request.body(), String.valueOf(h.brokerName()));
            Optional<ConsumeMessageDirectlyResult> result = messages.size() != 1 ? Optional.empty()
                    : heartbeats.consumer(h.consumerGroup())
                            .flatMap(member -> member.admin().consumeDirectly(messages.get(0)));
            return result.map(r -> RemotingCommand.responseTo(request, ResponseCode.SUCCESS).body(codec.encode(r))
                    .build()).orElseGet(() -> notHere(request, h.consumerGroup()));
        }, adminExecutor);
    }

    private static RemotingCommand notHere(RemotingCommand request, String group) {
        return RemotingCommand.responseTo(request, ResponseCode.SYSTEM_ERROR)
                .remark("The Consumer Group <" + group + "> not exist in this consumer").build();
    }

    /**
     * Asks once whether this client's credentials may consume {@code topic} as {@code group}: the topic's route from
     * the name servers, then a consumer-offset query at a broker of the topic (which needs what consuming needs).
     * Nothing is asked of brokers while the topic has no route.
     *
     * @throws BrokerException with {@link ResponseCode#NO_PERMISSION} and the server's remark when refused, or
     *         the failure of either request
     */
    public void checkConsumerAccess(String topic, String group) {
        Optional<TopicRoute> route = routes.refresh(topic);
        if (route.isEmpty() || route.get().readQueues().isEmpty()) {
            return;
        }
        MessageQueue queue = route.get().readQueues().get(0);
        String broker = route.get().readAddresses().get(queue.brokerName());
        if (broker == null) {
            return;
        }
        RemotingCommand answer = calls.call(broker, RemotingCommand.request(RequestCode.QUERY_CONSUMER_OFFSET,
                new QueryConsumerOffsetRequestHeader(group, topic, queue.queueId(), null, queue.brokerName())).build(),
                config.requestTimeout());
        if (answer.code() == ResponseCode.NO_PERMISSION) {
            throw WireErrors.fromResponse(answer, "consuming " + topic + " as " + group + " at " + broker);
        }
    }

    /**
     * Moves consumer group {@code group}'s offsets on {@code topic}, at every master broker of the topic, to the
     * first message stored at or after {@code timestamp}, forward or back (RocketMQ's resetOffsetByTime, forced).
     * The group's online consumers re-read from there without a restart.
     *
     * @return the new offset of each queue
     * @throws BrokerException when a broker refuses (no such group or topic, no permission)
     */
    public Map<MessageQueue, Long> resetOffsetsToTime(String group, String topic, Instant timestamp) {
        Map<MessageQueue, Long> moved = new TreeMap<>();
        for (String address : masters(topic).values()) {
            moved.putAll(resetAt(address, new ResetOffsetRequestHeader(topic, group, -1, -1L,
                    timestamp.toEpochMilli(), true), "to " + timestamp));
        }
        return moved;
    }

    /**
     * Moves consumer group {@code group}'s offsets of the queues given to the offsets given; its online consumers
     * re-read from there without a restart.
     *
     * @return the new offset of each queue
     * @throws IllegalArgumentException for a queue of another topic or broker than the topic's route has
     * @throws BrokerException when a broker refuses (an offset outside the queue, no permission)
     */
    public Map<MessageQueue, Long> resetOffsets(String group, Map<MessageQueue, Long> offsets) {
        Map<MessageQueue, Long> moved = new TreeMap<>();
        for (Map.Entry<MessageQueue, Long> target : new TreeMap<>(offsets).entrySet()) {
            MessageQueue queue = target.getKey();
            String address = masters(queue.topic()).get(queue.brokerName());
            if (address == null) {
                throw new IllegalArgumentException("no broker " + queue.brokerName() + " in the route of "
                        + queue.topic());
            }
            moved.putAll(resetAt(address, new ResetOffsetRequestHeader(queue.topic(), group, queue.queueId(),
                    target.getValue(), 0, true), "of " + queue + " to " + target.getValue()));
        }
        return moved;
    }

    private Map<String, String> masters(String topic) {
        TopicRoute route = routes.refresh(topic).orElseThrow(() -> new IllegalArgumentException("topic " + topic
                + " has no route"));
        return route.brokerAddresses();
    }

    private Map<MessageQueue, Long> resetAt(String address, ResetOffsetRequestHeader header, String what) {
        RemotingCommand answer = calls.call(address, RemotingCommand.request(RequestCode.INVOKE_BROKER_TO_RESET_OFFSET,
                header).build(), config.requestTimeout());
        if (answer.code() != ResponseCode.SUCCESS) {
            throw WireErrors.fromResponse(answer, "resetting the offsets of " + header.group() + " on "
                    + header.topic() + " " + what + " at " + address);
        }
        Map<MessageQueue, Long> moved = new TreeMap<>();
        if (answer.body() != null && answer.body().length > 0) {
            codec.decode(answer.body(), ResetOffsetBody.class).offsetTable().forEach((queue, offset) -> moved.put(
                    new MessageQueue(queue.topic(), queue.brokerName(), queue.queueId()), offset));
        }
        return moved;
    }

    /**
     * Whether the name servers answered the client's last route request: {@code false} once none did, until one
     * answers again (the client keeps trying meanwhile).
     */
    public boolean nameServerReachable() {
        return routes.nameServerReachable();
    }

    /** Why no name server answered, while none does. */
    public Optional<String> nameServerProblem() {
        return routes.nameServerProblem();
    }

    /** The client's metrics, when {@link ClientConfig#metrics()} is on. */
    public Optional<ClientMetrics> metrics() {
        return Optional.ofNullable(metrics);
    }

    /** Where sends and consumption are recorded. */
    ClientRecorder recorder() {
        return recorder;
    }

    /** The id brokers know this client by. */
    public String clientId() {
        return config.clientId();
    }

    /** Creates a producer of {@code producerConfig.group()}; one per group per client. */
    public Producer producer(ProducerConfig producerConfig) {
        ensureOpen();
        Producer producer = new Producer(this, producerConfig, null);
        members.add(producer);
        return producer;
    }

    /**
     * Creates a producer that can also {@link Producer#sendInTransaction send in transactions}; the broker's
     * check-backs for its group go to {@code checker}.
     */
    public Producer producer(ProducerConfig producerConfig, TransactionChecker checker) {
        ensureOpen();
        Producer producer = new Producer(this, producerConfig, Objects.requireNonNull(checker, "checker"));
        members.add(producer);
        transactional.put(producerConfig.group(), producer);
        return producer;
    }

    /** Creates and starts a push consumer that hands every message to {@code listener}. */
    public PushConsumer pushConsumer(PushConsumerConfig consumerConfig, MessageListener listener) {
        return pushConsumer(consumerConfig, listener, ConsumerEvents.NONE);
    }

    /** Creates and starts a push consumer that hands every message to {@code listener} and tells {@code events}. */
    public PushConsumer pushConsumer(PushConsumerConfig consumerConfig, MessageListener listener,
                                     ConsumerEvents events) {
        return started(consumerConfig, BatchDelivery.of(listener, consumerConfig.orderly()), events);
    }

    /**
     * Creates and starts a push consumer that hands {@code listener} batches of up to {@code consumeBatchSize}
     * messages of one queue, and tells {@code events}.
     */
    public PushConsumer batchPushConsumer(PushConsumerConfig consumerConfig, BatchMessageListener listener,
                                          ConsumerEvents events) {
        return started(consumerConfig, BatchDelivery.of(listener), events);
    }

    private PushConsumer started(PushConsumerConfig consumerConfig, BatchDelivery delivery, ConsumerEvents events) {
        ensureOpen();
        PushConsumer consumer = new PushConsumer(this, consumerConfig, delivery, events);
        try {
            consumer.start();
        } catch (RuntimeException e) {
            consumer.close(); // lets go of what it took when built: the watches on its plugins, say
            throw e;
        }
        members.add(consumer);
        return consumer;
    }

    /** Creates a pull consumer; it reads once it subscribes or is assigned queues. */
    public PullConsumer pullConsumer(PullConsumerConfig consumerConfig) {
        ensureOpen();
        PullConsumer consumer = new PullConsumer(this, consumerConfig);
        members.add(consumer);
        return consumer;
    }

    /** Re-reads every route; a broker seen for the first time gets a heartbeat at once, not 30 s later. */
    private void refreshRoutes() {
        Set<String> before = routes.brokerAddresses();
        routes.refreshAll();
        if (!before.containsAll(routes.brokerAddresses())) {
            heartbeats.sendToAllBrokers();
        }
    }

    ClientConfig config() {
        return config;
    }

    RemotingClient remoting() {
        return remoting;
    }

    BodyCodec codec() {
        return codec;
    }

    /** The requests of this client's services, over its connections. */
    BrokerCalls calls() {
        return calls;
    }

    /** Runs tasks after a delay on the client's scheduler. */
    Later later() {
        return Later.on(scheduler);
    }

    RouteCache routes() {
        return routes;
    }

    HeartbeatService heartbeats() {
        return heartbeats;
    }

    /** Makes every thread of this client: the configured factory's, Netty's thread-locals cleared after each task. */
    ThreadFactory threads() {
        return threads;
    }

    /** Finds undecided half messages for transaction recovery; at most this many per broker and group. */
    HalfMessageScan halfMessageScan() {
        return new HalfMessageScan(calls, routes::masterAddresses, decoder, config.requestTimeout(), 100_000);
    }

    MessageDecoder decoder() {
        return decoder;
    }

    UniqueMessageIds uniqueIds() {
        return uniqueIds;
    }

    ScheduledExecutorService scheduler() {
        return scheduler;
    }

    ClientPlugins plugins() {
        return plugins;
    }

    void forget(AutoCloseable member) {
        members.remove(member);
        transactional.values().remove(member);
    }

    /** Runs {@code job} on the scheduler every {@code period}, logging (not propagating) its failures. */
    void every(Duration period, Runnable job) {
        scheduler.scheduleWithFixedDelay(() -> runLogged(job), period.toMillis(), period.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    static void runLogged(Runnable job) {
        try {
            job.run();
        } catch (Throwable e) {
            LOG.log(Level.WARNING, "scheduled client job failed", e);
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("client " + clientId() + " is closed");
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<AutoCloseable> toClose = new ArrayList<>(members);
        Collections.reverse(toClose);
        for (AutoCloseable member : toClose) {
            try {
                member.close();
            } catch (Exception e) {
                LOG.log(Level.WARNING, "closing " + member + " failed", e);
            }
        }
        replies.close();
        scheduler.shutdownNow();
        adminExecutor.shutdownNow();
        try {
            scheduler.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        remoting.close();
    }
}
