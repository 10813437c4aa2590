package dev.ferry.server.broker;

import dev.ferry.format.StoredMessageView;
import dev.ferry.format.SystemTopics;
import dev.ferry.format.ThreadRoles;
import dev.ferry.remoting.ConnectionEvent;
import dev.ferry.remoting.RemoteChannel;
import dev.ferry.remoting.RemotingClient;
import dev.ferry.remoting.RemotingClientConfig;
import dev.ferry.server.auth.AccessGuard;
import dev.ferry.server.auth.AuthAdminProcessor;
import dev.ferry.server.auth.AuthConfig;
import dev.ferry.server.auth.AuthMetadata;
import dev.ferry.server.auth.RequestResources;
import dev.ferry.server.timer.TimerRouting;
import dev.ferry.server.timer.TimerStore;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RemotingException;
import dev.ferry.remoting.RemotingServer;
import dev.ferry.remoting.RemotingServerConfig;
import dev.ferry.remoting.RequestObserver;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.body.BrokerStatsBody;
import dev.ferry.remoting.protocol.body.Permission;
import dev.ferry.remoting.protocol.body.SubscriptionGroupConfig;
import dev.ferry.remoting.protocol.body.TopicConfig;
import dev.ferry.remoting.protocol.header.NotifyConsumerIdsChangedRequestHeader;
import dev.ferry.spi.MessageFilterProvider;
import dev.ferry.spi.PluginRegistry;
import dev.ferry.store.MessageStore;
import dev.ferry.store.StoreConfig;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A RocketMQ-compatible broker: stores messages sent to it, serves pulls (long polling),
 * keeps consumer groups, offsets and topics, and registers with name servers. It also delays
 * messages by level ({@link ScheduleService}), retries what consumers send back and parks what
 * they give up on in dead-letter topics ({@link RetryRouting}), holds transactional messages until
 * their producers decide ({@link TransactionService}), locks queues for orderly consumers
 * ({@link QueueLocks}) and counts what goes in and out for operators.
 *
 * <p>It owns its parts and wires them; each request code runs on the executor of its kind
 * (one thread for sends, which keeps a producer's order; a pool for pulls; one for client
 * bookkeeping). All threads come from the given factory. {@link #close()} unregisters, lets
 * running requests finish, and persists offsets and topics before closing the store.
 */
public final class Broker implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Broker.class.getName());
    private static final Duration NOTIFY_TIMEOUT = Duration.ofSeconds(3);
    /** How often due delayed messages are looked for: the most a delivery can be late by, plus the move. */
    private static final Duration DELAY_POLL = Duration.ofMillis(100);
    /** How often the timer thread looks for new timers and due slots: a small part of a slot's lateness. */
    private static final long TIMER_TICK_MS = 10;
    /** How soon a new topic or group is on disk: one write per round however many were created. */
    private static final Duration TABLE_PERSIST = Duration.ofMillis(200);

    private final BrokerConfig config;
    private final Clock clock;
    private final MessageStore store;
    private final TopicConfigTable topics;
    private final ConsumerOffsetTable offsets;
    private final SubscriptionGroupTable subscriptionGroups;
    private final ConsumerGroups consumers;
    private final ProducerGroups producers;
    private final PullRequestHold hold;
    private final RemotingServer remoting;
    private final RemotingClient nameServerClient;
    private final BrokerRegistration registration;
    private final BrokerReplication replication;
    /** Told of each dispatched message: wakes replication once it exists. */
    private volatile Runnable dispatched = () -> { };
    private final ThreadPoolExecutor sendExecutor;
    /** The send executor as the store-writing requests see it: knows when it is idle. */
    private final SendLane sendLane;
    private final ThreadPoolExecutor pullExecutor;
    private final ThreadPoolExecutor clientExecutor;
    private final ThreadPoolExecutor queryExecutor;
    private final ScheduledExecutorService scheduler;
    /** Registration runs apart: a name server slow to answer must not hold up pulls' expiry or delayed messages. */
    private final ScheduledExecutorService registrar;
    private final AtomicBoolean registrationPending = new AtomicBoolean();
    private final BodyCodec json = new BodyCodec();
    private final SendMessageProcessor send;
    private final ScheduleService schedule;
    private final TimerStore timers;
    /** The timer store's one thread: it indexes, fires and saves. */
    private final ScheduledExecutorService timerThread;
    private final TransactionService transactions;
    private final SubscriptionFilters filters;
    private final BrokerStatsProcessor stats;
    /** Admin requests run apart from queries: a topic deletion waits for the store. */
    private final ThreadPoolExecutor adminExecutor;
    private final BrokerSettings settings;
    private final TopicCounters counters;
    private final BrokerStatistics statistics;
    private final PullOffsets pullOffsets;
    private final BrokerFigures figures;
    private final ReplyPushes replies;
    /** Who may have a message a request named by its offset or id: everyone until access is controlled. */
    private volatile MessageAccess messageAccess = MessageAccess.OPEN;
    private final AtomicLong messageRefusals = new AtomicLong();
    private volatile boolean closed;

    /**
     * @param pluginLoader where filter plugins are looked up (the built-ins and users' jars)
     */
    public Broker(BrokerConfig config, StoreConfig storeConfig, Clock clock, ThreadFactory threadFactory,
                  ClassLoader pluginLoader) {
        this.config = config;
        this.clock = clock;
        BrokerLimits limits = config.limits();
        Path configDir = config.storeDir().resolve("config");
        this.topics = new TopicConfigTable(configDir, clock, limits.maxTopics());
        // As Apache's broker: a topic named after its cluster (16 queues) and one after itself (1 queue), which
        // Apache's tools route by; an Apache name server also refuses a broker's first registration of one topic.
        int everything = Permission.READ | Permission.WRITE | Permission.INHERIT;
        topics.putIfAbsent(new TopicConfig(config.clusterName(), 16, 16, everything, null, 0, false, Map.of()));
        topics.putIfAbsent(new TopicConfig(config.brokerName(), 1, 1, everything, null, 0, false, Map.of()));
        // and, as Apache's, the cluster's reply topic, one queue on every broker: replies are pushed, never stored
        topics.putIfAbsent(new TopicConfig(SystemTopics.replyTopic(config.clusterName()), 1, 1,
                Permission.READ | Permission.WRITE, null, 0, false, Map.of()));
        this.offsets = new ConsumerOffsetTable(configDir, limits.maxConsumerOffsets());
        this.subscriptionGroups = new SubscriptionGroupTable(configDir, clock, limits.maxSubscriptionGroups(),
                config.maxReconsumeTimes(), offsets.groups(), config.autoCreateSubscriptionGroup());
        this.consumers = new ConsumerGroups(clock, limits.maxSubscriptionBytes(), limits.maxGroupsPerConnection(),
                limits.maxMemberships());
        this.producers = new ProducerGroups(clock, limits.maxProducerGroups(), limits.maxGroupsPerConnection(),
                limits.maxMemberships());
        // Bounded like Apache's, so a flood of one kind is answered SYSTEM_BUSY and the others still served.
        this.sendExecutor = boundedPool(1, limits.sendQueueCapacity(),
                ThreadRoles.named("ferry-broker-send", threadFactory));
        this.sendLane = new SendLane(sendExecutor);
        this.pullExecutor = boundedPool(4, limits.pullQueueCapacity(),
                ThreadRoles.named("ferry-broker-pull", threadFactory));
        this.clientExecutor = boundedPool(2, limits.clientQueueCapacity(),
                ThreadRoles.named("ferry-broker-client", threadFactory));
        this.queryExecutor = boundedPool(1, limits.queryQueueCapacity(),
                ThreadRoles.named("ferry-broker-query", threadFactory));
        this.scheduler = Executors.newSingleThreadScheduledExecutor(
                ThreadRoles.named("ferry-broker-schedule", threadFactory));
        this.registrar = Executors.newSingleThreadScheduledExecutor(
                ThreadRoles.named("ferry-broker-register", threadFactory));
        this.hold = new PullRequestHold(clock, pullExecutor, limits.maxHeldPulls(), limits.maxHeldPullsPerConnection());
        this.store = MessageStore.builder(storeConfig).clock(clock).threadFactory(threadFactory)
                .arrivalListener((topic, queueId, next, tagsCode, storeTime) -> {
                    hold.onArrival(topic, queueId, next);
                    dispatched.run(); // under sync flush only now are the bytes in the file replication reads
                })
                .open();
        Map<String, Integer> queuesInStore = store.queueCounts();
        topics.restoreFromStore(queuesInStore);
        if (queuesInStore.containsKey(SystemTopics.TRANSACTION_HALF_TOPIC)) {
            // both, even when a crash lost them before the first decision was written
            topics.ensureTransactionTopics();
        }
        config.traceTopic().ifPresent(topics::ensureTraceTopic);
        this.remoting = new RemotingServer(RemotingServerConfig.builder().host(config.host()).port(config.port())
                .ioThreads(config.ioThreads()).limits(config.remotingLimits()).tls(config.tls()).build(),
                ThreadRoles.named("ferry-broker-remoting", threadFactory));
        this.nameServerClient = new RemotingClient(RemotingClientConfig.builder().tls(config.nameServerTls())
                .credentials(config.nameServerCredentials().orElse(null)).build(),
                ThreadRoles.named("ferry-broker-namesrv-client", threadFactory));
        this.registration = new BrokerRegistration(config, topics, nameServerClient, json);

        this.filters = new SubscriptionFilters(PluginRegistry.load(MessageFilterProvider.KIND, pluginLoader),
                config.sql92Enabled(), limits.maxExpressionLength(), limits.filterCacheBytes());
        InetSocketAddress storeHost = new InetSocketAddress(config.host(), config.port());
        this.counters = new TopicCounters();
        this.settings = new BrokerSettings(configDir, clock, config);
        this.adminExecutor = boundedPool(1, limits.queryQueueCapacity(),
                ThreadRoles.named("ferry-broker-admin", threadFactory));
        RetryRouting retries = new RetryRouting(config.maxReconsumeTimes(), subscriptionGroups::get, topics,
                this::topicsChanged);
        this.schedule = new ScheduleService(config.delayLevels(), store, configDir, clock, this::storeHost);
        this.timers = new TimerStore(config.timers(), store, config.storeDir().resolve("timer"), clock,
                this::storeHost, topic -> topics.get(topic).isPresent() || SystemTopics.isRetryTopic(topic));
        store.expiryFloor(timers::expiryFloor);
        this.statistics = new BrokerStatistics(counters, timers::figures, clock, java.time.ZoneId.systemDefault());
        this.timerThread = Executors.newSingleThreadScheduledExecutor(
                ThreadRoles.named("ferry-broker-timer", threadFactory));
        TimerRouting timerRouting = new TimerRouting(config.timers(), clock, timers::slotCount);
        this.replication = new BrokerReplication(config, store, new MasterCopy(nameServerClient, json, topics,
                subscriptionGroups, offsets, schedule, timers), storeConfig.syncFlushTimeout(),
                ThreadRoles.named("ferry-broker-replication", threadFactory),
                () -> TimeUnit.MILLISECONDS.toNanos(clock.millis()));
        registration.whenMasterNamed(replication::masterNamed);
        this.dispatched = replication::appended;
        this.transactions = new TransactionService(config, store, producers, configDir, clock, this::storeHost,
                (producer, half) -> messageAccess.mayDecide(producer, half),
                new WaitRouting(schedule, timerRouting)::route);
        this.send = new SendMessageProcessor(config, store, topics, this::topicsChanged, storeHost, schedule, retries,
                counters, subscriptionGroups, settings, replication.sendWait(), replication::appended, timerRouting);
        this.pullOffsets = new PullOffsets(limits.maxConsumerOffsets());
        PullMessageProcessor pull = new PullMessageProcessor(config, store, topics, consumers, offsets, filters, hold,
                clock, counters, subscriptionGroups, pullOffsets);
        ClientRequestProcessor client = new ClientRequestProcessor(consumers, producers, subscriptionGroups, retries,
                filters, limits, json, this::notifyMembershipChanged, hold::onSubscriptionChanged);
        this.replies = new ReplyPushes(config.remotingLimits().maxOutboundBytes());
        ReplyMessageProcessor replyRequests = new ReplyMessageProcessor(topics, producers, replies, settings,
                this::storeHost, clock);
        OffsetRequestProcessor offsetRequests = new OffsetRequestProcessor(store, offsets, subscriptionGroups, topics,
                new FirstOffsets(FirstOffsets.queuesOf(store), config.firstOffsetRule()));
        MessageQueryProcessor queries = new MessageQueryProcessor(store, limits.maxQueryResults(),
                this::messageRefusal);
        this.stats = new BrokerStatsProcessor(config.brokerName(), store, topics, consumers, offsets, counters, json,
                this::health, timers::figures);

        for (int code : new int[] {RequestCode.SEND_MESSAGE, RequestCode.SEND_MESSAGE_V2,
                RequestCode.SEND_BATCH_MESSAGE}) {
            remoting.registerProcessor(code, send, sendLane, new InlineSends(sendLane, topics));
        }
        InlinePulls inlinePulls = new InlinePulls(consumers, subscriptionGroups);
        hold.retryOnItsConnection(inlinePulls);
        remoting.registerProcessor(RequestCode.PULL_MESSAGE, pull, pullExecutor, inlinePulls);
        remoting.registerProcessor(RequestCode.LITE_PULL_MESSAGE, pull, pullExecutor, inlinePulls);
        for (int code : new int[] {RequestCode.HEART_BEAT, RequestCode.UNREGISTER_CLIENT,
                RequestCode.GET_CONSUMER_LIST_BY_GROUP, RequestCode.CHECK_CLIENT_CONFIG}) {
            remoting.registerProcessor(code, client, clientExecutor);
        }
        // Not on the send lane: a reply is not stored, and its answer waits for the requester's client
        remoting.registerProcessor(RequestCode.SEND_REPLY_MESSAGE, replyRequests, clientExecutor);
        remoting.registerProcessor(RequestCode.SEND_REPLY_MESSAGE_V2, replyRequests, clientExecutor);
        for (int code : new int[] {RequestCode.QUERY_CONSUMER_OFFSET, RequestCode.UPDATE_CONSUMER_OFFSET,
                RequestCode.GET_MAX_OFFSET, RequestCode.GET_MIN_OFFSET, RequestCode.SEARCH_OFFSET_BY_TIMESTAMP,
                RequestCode.GET_EARLIEST_MSG_STORETIME}) {
            remoting.registerProcessor(code, offsetRequests, clientExecutor);
        }
        // Send-backs and transaction ends write to the store like sends do, in arrival order.
        remoting.registerProcessor(RequestCode.CONSUMER_SEND_MSG_BACK,
                new SendBackProcessor(store, retries, schedule, this::storeHost, subscriptionGroups, counters,
                        this::messageRefusal),
                sendLane);
        remoting.registerProcessor(RequestCode.END_TRANSACTION,
                new EndTransactionProcessor(transactions, this::messageRefusal), sendLane);
        QueueLocks queueLocks = new QueueLocks(clock, limits.maxQueueLocks());
        LockProcessor lockRequests = new LockProcessor(queueLocks, subscriptionGroups, topics, json,
                config.brokerName());
        remoting.registerProcessor(RequestCode.LOCK_BATCH_MQ, lockRequests, clientExecutor, LockProcessor.SMALL);
        remoting.registerProcessor(RequestCode.UNLOCK_BATCH_MQ, lockRequests, clientExecutor, LockProcessor.SMALL);
        remoting.registerProcessor(RequestCode.FERRY_GET_BROKER_STATS, stats, queryExecutor);
        remoting.registerProcessor(RequestCode.VIEW_MESSAGE_BY_ID, queries, queryExecutor);
        remoting.registerProcessor(RequestCode.QUERY_MESSAGE, queries, queryExecutor);
        TopicAdminProcessor topicAdmin = new TopicAdminProcessor(config, topics, offsets, consumers, store, topic -> {
            counters.forgetTopic(topic);
            pullOffsets.forget(key -> key.startsWith(topic + "@"));
        }, statistics.putWindows, json, this::topicsChanged, clock, (ok, system, millis) ->
                observer.topicCreated(ok, system, millis));
        GroupAdminProcessor groupAdmin = new GroupAdminProcessor(config.brokerName(), topics, subscriptionGroups,
                offsets, pullOffsets, consumers, producers, store, statistics.getWindows, json, this::address, clock,
                (ok, system, millis) -> observer.groupCreated(ok, millis), group -> {
                    counters.forgetGroup(group);
                    statistics.getWindows.forget(key -> key.endsWith("@" + group));
                    pullOffsets.forget(key -> key.endsWith("@" + group));
                });
        ConsumerCallsProcessor consumerCalls = new ConsumerCallsProcessor(config.brokerName(), topics,
                subscriptionGroups, offsets, consumers, store, json, this::messageRefusal);
        BrokerInfoProcessor info = new BrokerInfoProcessor(config, settings, new BrokerInfoProcessor.Sources(store,
                counters, statistics, timers::figures, executors(), clock.millis()), json, clock);
        for (int code : TopicAdminProcessor.CODES) {
            remoting.registerProcessor(code, topicAdmin, adminExecutor);
        }
        for (int code : GroupAdminProcessor.CODES) {
            remoting.registerProcessor(code, groupAdmin, adminExecutor);
        }
        for (int code : ConsumerCallsProcessor.CODES) {
            remoting.registerProcessor(code, consumerCalls, adminExecutor);
        }
        for (int code : BrokerInfoProcessor.CODES) {
            remoting.registerProcessor(code, info, queryExecutor);
        }
        replication.registerProcessors(remoting, offsets, schedule, timers, clock, json, adminExecutor, sendLane);
        countDecisions();
        this.figures = new BrokerFigures(config, clock, store, topics, subscriptionGroups, offsets, pullOffsets,
                consumers, producers, counters, replies, executors(), timers::figures, timers::slotCount);
        remoting.addConnectionListener(event -> {
            if (event.type() == ConnectionEvent.Type.CLOSE) {
                producers.connectionClosed(event.channel().id());
                queueLocks.connectionClosed(event.channel().id());
                consumers.connectionClosed(event.channel().id()).forEach(this::notifyMembershipChanged);
            }
        });
    }

    /** A fixed pool whose queue holds at most {@code capacity} tasks; beyond, execute throws (SYSTEM_BUSY). */
    private static ThreadPoolExecutor boundedPool(int threads, int capacity, ThreadFactory threadFactory) {
        return new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(capacity),
                threadFactory);
    }

    /** What an operator checks first: what the broker refused, set aside or holds now. */
    private BrokerStatsBody.Health health() {
        return new BrokerStatsBody.Health(store.dispatchFailures(), store.setAsideQueues(), remoting.badRequests(),
                remoting.malformedFrames(), remoting.processorFailures(), remoting.connectionCount(), remoting.inboundBytes(), hold.size(),
                topics.size(), subscriptionGroups.size(), offsets.size(), consumers.subscriptionChars(),
                filters.cachedWeight());
    }

    /** Where sends, send-backs and transaction ends queue, for tests that need it busy. */
    SendLane sendLane() {
        return sendLane;
    }

    /** How far groups have pulled, for tests of what is forgotten. */
    PullOffsets pullOffsets() {
        return pullOffsets;
    }

    /** The broker's executors by kind, for tests that need one busy. */
    Map<String, ThreadPoolExecutor> executors() {
        return Map.of("send", sendExecutor, "pull", pullExecutor, "client", clientExecutor, "query", queryExecutor,
                "admin", adminExecutor);
    }

    /**
     * Puts users and policies in charge (before {@link #start()}): the ACL admin requests manage {@code metadata},
     * and, as {@code auth} switches them on, every request is authenticated and authorized against it.
     */
    public void controlAccess(AuthMetadata metadata, AuthConfig auth) {
        AuthAdminProcessor admin = new AuthAdminProcessor(metadata, json, auth.authenticationEnabled());
        for (int code : AuthAdminProcessor.CODES) {
            remoting.registerProcessor(code, admin, queryExecutor);
        }
        if (auth.anyEnabled()) {
            AccessGuard guard = new AccessGuard(metadata, new RequestResources(json, config.clusterName()),
                    auth.authenticationEnabled(), auth.authorizationEnabled());
            remoting.guard(guard);
            messageAccess = new MessageAccess() {
                @Override
                public RemotingCommand refusal(RemoteChannel channel, RemotingCommand request,
                                               StoredMessageView message) {
                    return guard.checkMessage(channel, request, message);
                }

                @Override
                public boolean mayDecide(RemoteChannel producer, StoredMessageView half) {
                    return guard.mayDecide(producer, half);
                }
            };
            remoting.addConnectionListener(event -> {
                if (event.type() == ConnectionEvent.Type.CLOSE) {
                    guard.connectionClosed(event.channel().id());
                }
            });
        }
    }

    private RemotingCommand messageRefusal(RemoteChannel channel, RemotingCommand request, StoredMessageView message) {
        RemotingCommand refusal = messageAccess.refusal(channel, request, message);
        if (refusal != null) {
            messageRefusals.incrementAndGet();
        }
        return refusal;
    }

    /**
     * Requests refused by authentication or authorization since start: by the guard in front of the processors, and
     * for the message they named by its offset or id.
     */
    public long refusedRequests() {
        return remoting.refusedRequests() + messageRefusals.get();
    }

    /** Starts serving and registers with the name servers. */
    public Broker start() {
        remoting.start();
        send.storeHost(new InetSocketAddress(config.host(), remoting.port()));
        registration.addresses(address(), replication.start(remoting.port(), scheduler));
        registration.registerAll();
        long register = config.registerInterval().toMillis();
        registrar.scheduleWithFixedDelay(this::registerQuietly, register, register, TimeUnit.MILLISECONDS);
        long persist = config.offsetPersistInterval().toMillis();
        scheduler.scheduleWithFixedDelay(this::persistOffsets, persist, persist, TimeUnit.MILLISECONDS);
        scheduler.scheduleWithFixedDelay(() -> quietly("persisting topics and groups", () -> {
            topics.persistIfChanged();
            subscriptionGroups.persistIfChanged();
        }), TABLE_PERSIST.toMillis(), TABLE_PERSIST.toMillis(), TimeUnit.MILLISECONDS);
        scheduler.scheduleWithFixedDelay(this::expireClients, 10, 10, TimeUnit.SECONDS);
        scheduler.scheduleWithFixedDelay(hold::expire, 200, 200, TimeUnit.MILLISECONDS);
        scheduler.scheduleAtFixedRate(() -> quietly("sampling throughput", statistics::sampleSecond), 1, 1,
                TimeUnit.SECONDS);
        scheduler.scheduleAtFixedRate(() -> quietly("rolling statistics", statistics::rollMinute), 1, 1,
                TimeUnit.MINUTES);
        scheduler.scheduleWithFixedDelay(() -> quietly("persisting delay progress", schedule::persistIfChanged),
                persist, persist, TimeUnit.MILLISECONDS);
        // a slave indexes the timers its master's log brings and takes the master's progress; it fires none
        timers.firing(!replication.isSlave());
        timerThread.scheduleWithFixedDelay(() -> quietly("holding timer messages", timers::tick), TIMER_TICK_MS,
                TIMER_TICK_MS, TimeUnit.MILLISECONDS);
        if (!replication.isSlave()) { // a slave's copy of the log is written by its master alone
            scheduler.scheduleWithFixedDelay(() -> quietly("delivering delayed messages", schedule::deliverDue),
                    DELAY_POLL.toMillis(), DELAY_POLL.toMillis(), TimeUnit.MILLISECONDS);
            long check = config.transactionCheckInterval().toMillis();
            scheduler.scheduleWithFixedDelay(() -> quietly("checking transactions", () -> {
                transactions.checkUndecided();
                transactions.persistIfChanged();
            }), check, check, TimeUnit.MILLISECONDS);
        }
        LOG.log(System.Logger.Level.INFO, "broker {0} id {1} ({2}) of cluster {3} serving at {4}",
                config.brokerName(), config.brokerId(), config.brokerRole(), config.clusterName(), address());
        return this;
    }

    /** {@code host:port} clients reach this broker at (after {@link #start()}). */
    public String address() {
        return config.address(remoting.port());
    }

    public int port() {
        return remoting.port();
    }

    /** {@code host:port} of the HA port this master serves its slaves on (after {@link #start()}), or empty. */
    public String haAddress() {
        return replication.haAddress();
    }

    /** What the broker counts and holds, for metrics and management. */
    public BrokerFigures figures() {
        return figures;
    }

    /**
     * Tells {@code requests} of every request answered and how long it took, and {@code observer} of puts, commits
     * and creations, from now on (before {@link #start()}).
     */
    public void observe(RequestObserver requests, BrokerObserver observer) {
        remoting.observe(requests);
        counters.observePuts((topic, type, count, bytes) -> observer.stored(topic, type.label(), count, bytes));
        this.observer = observer;
    }

    private volatile BrokerObserver observer = BrokerObserver.NONE;

    /** Counts what producers decide of their transactions, and tells the observer of commits. */
    private void countDecisions() {
        transactions.listen(new TransactionService.DecisionListener() {
            @Override
            public void decided(String topic, boolean committed, long bornTimestamp) {
                counters.transactionDecided(topic, committed);
                if (committed) {
                    observer.committed(topic, clock.millis() - bornTimestamp);
                }
            }

            @Override
            public void discarded(String topic) {
                counters.transactionDiscarded(topic);
            }
        });
    }

    /** The store, for administration and tests. */
    public MessageStore store() {
        return store;
    }

    private void topicsChanged() {
        if (registrationPending.compareAndSet(false, true)) {
            try {
                registrar.execute(() -> {
                    registrationPending.set(false);
                    registerQuietly();
                });
            } catch (RejectedExecutionException e) {
                registrationPending.set(false);
            }
        }
    }

    private void registerQuietly() {
        try {
            registration.registerAll();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "registering with name servers failed", e);
        }
    }

    private InetSocketAddress storeHost() {
        return send.storeHost();
    }

    /** Runs a periodic duty so that one failure neither stops the schedule nor goes unseen. */
    private static void quietly(String what, Runnable duty) {
        try {
            duty.run();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, what + " failed", e);
        }
    }

    private void persistOffsets() {
        try {
            offsets.persistIfChanged();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "persisting consumer offsets failed", e);
        }
    }

    private void expireClients() {
        try {
            producers.expire(config.channelExpiry());
            consumers.expire(config.channelExpiry()).forEach(this::notifyMembershipChanged);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "expiring silent clients failed", e);
        }
    }

    /** Tells every client of the group to rebalance now. */
    private void notifyMembershipChanged(String group) {
        List<RemoteChannel> channels = new ArrayList<>(consumers.channels(group));
        if (channels.isEmpty() || closed || !subscriptionGroups.get(group)
                .map(SubscriptionGroupConfig::notifiesConsumerIdsChanged).orElse(true)) {
            return;
        }
        RemotingCommand notice = RemotingCommand.request(RequestCode.NOTIFY_CONSUMER_IDS_CHANGED,
                new NotifyConsumerIdsChangedRequestHeader(group, null)).build();
        try {
            clientExecutor.execute(() -> {
                for (RemoteChannel channel : channels) {
                    try {
                        channel.invokeOneway(notice, NOTIFY_TIMEOUT);
                    } catch (RemotingException e) {
                        LOG.log(System.Logger.Level.DEBUG, "cannot notify {0}: {1}", channel, e.getMessage());
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            LOG.log(System.Logger.Level.DEBUG, "not notifying group {0}: stopping", group);
        }
    }

    /** The counters {@code ferry-server admin} shows. */
    public BrokerStatsBody stats() {
        return stats.stats();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        scheduler.shutdownNow();
        registrar.shutdownNow();
        timerThread.shutdown(); // not interrupted: an interrupt would close the timer log's files under it
        registration.unregisterAll();
        // sends waiting for a sync-flush force are answered before their connections close
        remoting.close(store::flush);
        for (ExecutorService executor : List.of(sendExecutor, pullExecutor, clientExecutor, queryExecutor,
                adminExecutor)) {
            executor.shutdown();
        }
        try {
            for (ExecutorService executor : List.of(scheduler, registrar, timerThread, sendExecutor, pullExecutor,
                    clientExecutor, queryExecutor, adminExecutor)) {
                executor.awaitTermination(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        offsets.persist();
        topics.persist();
        subscriptionGroups.persist();
        schedule.persist();
        transactions.persist();
        if (timerThread.isTerminated()) {
            timers.close();
        }
        replication.close();
        nameServerClient.close();
        store.close();
        LOG.log(System.Logger.Level.INFO, "broker {0} stopped", config.brokerName());
    }
}
