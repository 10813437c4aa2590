package dev.ferry.server.broker;

import dev.ferry.format.Clock;
import dev.ferry.format.StoredMessageView;
import dev.ferry.format.SystemTopics;
import dev.ferry.format.ThreadRoles;
import dev.ferry.remoting.ConnectionEvent;
import dev.ferry.remoting.RemoteChannel;
import dev.ferry.remoting.endpoint.RemotingClient;
import dev.ferry.remoting.RemotingClientConfig;
import dev.ferry.server.auth.AccessGuard;
import dev.ferry.server.auth.AuthAdminProcessor;
import dev.ferry.server.auth.AuthConfig;
import dev.ferry.server.auth.AuthMetadata;
import dev.ferry.server.auth.RequestResources;
import dev.ferry.server.timer.TimerRouting;
import dev.ferry.server.timer.TimerStore;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.endpoint.RemotingServer;
import dev.ferry.remoting.RemotingServerConfig;
import dev.ferry.remoting.RequestObserver;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.body.BrokerStatsBody;
import dev.ferry.spi.MessageFilterProvider;
import dev.ferry.spi.PluginRegistry;
import dev.ferry.store.MessageStore;
import dev.ferry.store.StoreConfig;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A RocketMQ-compatible broker: stores messages sent to it, serves pulls (long polling),
 * keeps consumer groups, offsets and topics, and registers with name servers. It also delays
 * messages by level ({@link ScheduleService}), retries what consumers send back and parks what
 * they give up on in dead-letter topics ({@link RetryRouting}), holds transactional messages until
 * their producers decide ({@link TransactionService}), locks queues for orderly consumers
 * ({@link QueueLocks}) and counts what goes in and out for operators.
 *
 * <p>It keeps the lifecycle and wires parts that each have one job: its threads ({@link BrokerExecutors}), which
 * processor answers each request code and where ({@link RequestTable}, filled by {@link BrokerProcessors}), its
 * periodic duties ({@link BrokerDuties}), registration with name servers ({@link CoalescedRegistration}), notices
 * to rebalance ({@link MembershipNotices}), the topics it starts with ({@link BuiltInTopics}) and the figures
 * operators check first ({@link HealthReport}). All threads come from the given factory. {@link #close()} stops the
 * duties, unregisters, lets queued requests finish, and persists offsets and topics before closing the store.
 */
public final class Broker implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Broker.class.getName());
    /** How long a stop waits for each of the broker's threads. */
    private static final Duration STOP_WAIT = Duration.ofSeconds(5);

    private final BrokerConfig config;
    private final Clock clock;
    private final MessageStore store;
    private final TopicConfigTable topics;
    private final ConsumerOffsetTable offsets;
    private final SubscriptionGroupTable subscriptionGroups;
    private final ConsumerGroups consumers;
    private final ProducerGroups producers;
    private final PullRequestHold hold;
    private final MembershipNotices notices;
    private final RemotingServer remoting;
    private final RequestTable requests;
    private final RemotingClient nameServerClient;
    private final NameServerRegistration registration;
    private final CoalescedRegistration registrations;
    private final BrokerReplication replication;
    /** Told of each dispatched message: wakes replication once it exists. */
    private volatile Runnable dispatched = () -> { };
    private final BrokerExecutors executors;
    private final BodyCodec json = new BodyCodec();
    private final SendMessageProcessor send;
    private final ScheduleService schedule;
    private final TimerStore timers;
    private final TransactionService transactions;
    private final SubscriptionFilters filters;
    private final BrokerStatsProcessor stats;
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
        this(config, storeConfig, clock, threadFactory, pluginLoader, BrokerParts.standard());
    }

    /** A broker whose store and name-server registration come from {@code parts}. */
    Broker(BrokerConfig config, StoreConfig storeConfig, Clock clock, ThreadFactory threadFactory,
           ClassLoader pluginLoader, BrokerParts parts) {
        this.config = config;
        this.clock = clock;
        BrokerLimits limits = config.limits();
        Path configDir = config.storeDir().resolve("config");
        this.topics = new TopicConfigTable(configDir, clock, limits.maxTopics());
        BuiltInTopics.seed(topics, config);
        this.offsets = new ConsumerOffsetTable(configDir, limits.maxConsumerOffsets());
        this.subscriptionGroups = new SubscriptionGroupTable(configDir, clock, limits.maxSubscriptionGroups(),
                config.maxReconsumeTimes(), offsets.groups(), config.autoCreateSubscriptionGroup());
        this.consumers = new ConsumerGroups(clock, limits.maxSubscriptionBytes(), limits.maxGroupsPerConnection(),
                limits.maxMemberships());
        this.producers = new ProducerGroups(clock, limits.maxProducerGroups(), limits.maxGroupsPerConnection(),
                limits.maxMemberships());
        this.executors = new BrokerExecutors(limits, threadFactory);
        this.notices = new MembershipNotices(consumers, subscriptionGroups::get, executors.client());
        this.hold = new PullRequestHold(clock, executors.pull(), limits.maxHeldPulls(),
                limits.maxHeldPullsPerConnection());
        this.store = parts.store().open(storeConfig, clock, threadFactory,
                (topic, queueId, next, tagsCode, storeTime) -> {
                    hold.onArrival(topic, queueId, next);
                    dispatched.run(); // under sync flush only now are the bytes in the file replication reads
                });
        BuiltInTopics.restore(topics, store.queueCounts(), config);
        this.remoting = new RemotingServer(RemotingServerConfig.builder().host(config.listenHost()).port(config.port())
                .ioThreads(config.ioThreads()).limits(config.remotingLimits()).tls(config.tls()).build(),
                ThreadRoles.named("ferry-broker-remoting", threadFactory), clock);
        this.requests = new RequestTable(remoting::registerProcessor);
        this.nameServerClient = new RemotingClient(RemotingClientConfig.builder().tls(config.nameServerTls())
                .credentials(config.nameServerCredentials().orElse(null)).build(),
                ThreadRoles.named("ferry-broker-namesrv-client", threadFactory), clock);
        this.registration = parts.registration().create(config, topics, nameServerClient, json);
        this.registrations = new CoalescedRegistration(registration, executors.registrar());

        this.filters = new SubscriptionFilters(PluginRegistry.load(MessageFilterProvider.KIND, pluginLoader),
                config.sql92Enabled(), limits.maxExpressionLength(), limits.filterCacheBytes());
        InetSocketAddress storeHost = new InetSocketAddress(config.host(), config.port());
        this.counters = new TopicCounters();
        BrokerSettings settings = new BrokerSettings(configDir, clock, config);
        RetryRouting retries = new RetryRouting(config.maxReconsumeTimes(), subscriptionGroups::get, topics,
                registrations::registerSoon);
        this.schedule = new ScheduleService(config.delayLevels(), store, configDir, clock, this::storeHost);
        this.timers = new TimerStore(config.timers(), store, config.storeDir().resolve("timer"), clock,
                this::storeHost, topic -> topics.get(topic).isPresent() || SystemTopics.isRetryTopic(topic));
        store.expiryFloor(timers::expiryFloor);
        this.statistics = new BrokerStatistics(counters, timers::figures, clock, java.time.ZoneId.systemDefault());
        TimerRouting timerRouting = new TimerRouting(config.timers(), clock, timers::slotCount);
        this.replication = new BrokerReplication(config, store, new MasterCopy(nameServerClient, json, topics,
                subscriptionGroups, offsets, schedule, timers), storeConfig.syncFlushTimeout(),
                ThreadRoles.named("ferry-broker-replication", threadFactory), clock);
        registration.whenMasterNamed(replication::masterNamed);
        this.dispatched = replication::appended;
        this.transactions = new TransactionService(config, store, producers, configDir, clock, this::storeHost,
                (producer, half) -> messageAccess.mayDecide(producer, half),
                new WaitRouting(schedule, timerRouting)::route);
        this.send = new SendMessageProcessor(() -> SendSettings.of(config, settings.values()), store, topics,
                registrations::registerSoon, subscriptionGroups, SendRoute.forSends(retries, counters,
                        config.delayLevels(), timerRouting, () -> {
                            if (topics.ensureTransactionTopics()) {
                                registrations.registerSoon();
                            }
                        }), counters, replication.sendWait(), replication::appended, storeHost);
        this.pullOffsets = new PullOffsets(limits.maxConsumerOffsets());
        this.replies = new ReplyPushes(config.remotingLimits().maxOutboundBytes());
        HealthReport health = new HealthReport(
                new HealthReport.StoreFigures(store::dispatchFailures, store::setAsideQueues),
                new HealthReport.ServerFigures(remoting::badRequests, remoting::malformedFrames,
                        remoting::processorFailures, remoting::connectionCount, remoting::inboundBytes),
                new HealthReport.TableFigures(hold::size, topics::size, subscriptionGroups::size, offsets::size,
                        consumers::subscriptionChars, filters::cachedWeight));
        this.stats = new BrokerStatsProcessor(config.brokerName(), store, topics, consumers, offsets, counters, json,
                health::health, timers::figures);
        QueueLocks queueLocks = new QueueLocks(clock, limits.maxQueueLocks());
        InlinePulls inlinePulls = new InlinePulls(consumers, subscriptionGroups);
        hold.retryOnItsConnection(inlinePulls);
        processors(settings, retries, queueLocks, inlinePulls).route(requests, executors);
        replication.registerProcessors(requests, offsets, schedule, timers, clock, json, executors.admin(),
                executors.sendLane());
        countDecisions();
        this.figures = new BrokerFigures(config, clock, store, topics, subscriptionGroups, offsets, pullOffsets,
                consumers, producers, counters, replies, executors.requestPools(), timers::figures,
                timers::slotCount);
        remoting.addConnectionListener(event -> {
            if (event.type() == ConnectionEvent.Type.CLOSE) {
                producers.connectionClosed(event.channel().id());
                queueLocks.connectionClosed(event.channel().id());
                consumers.connectionClosed(event.channel().id()).forEach(notices::changed);
            }
        });
    }

    /** The processors of every request the broker answers, over its parts. */
    private BrokerProcessors processors(BrokerSettings settings, RetryRouting retries, QueueLocks queueLocks,
                                        InlinePulls inlinePulls) {
        PullMessageProcessor pull = new PullMessageProcessor(PullSettings.of(config), store, topics, consumers, offsets,
                filters, hold, clock, counters, subscriptionGroups, pullOffsets);
        ClientRequestProcessor client = new ClientRequestProcessor(consumers, producers, subscriptionGroups, retries,
                filters, config.limits(), json, notices::changed, hold::onSubscriptionChanged);
        ReplyMessageProcessor reply = new ReplyMessageProcessor(topics, producers, replies, settings,
                this::storeHost, clock);
        OffsetRequestProcessor offsetRequests = new OffsetRequestProcessor(store, offsets, subscriptionGroups, topics,
                new FirstOffsets(FirstOffsets.queuesOf(store), config.firstOffsetRule()));
        SendBackProcessor sendBack = new SendBackProcessor(store, retries, schedule, this::storeHost,
                subscriptionGroups, counters, this::messageRefusal);
        EndTransactionProcessor endTransaction = new EndTransactionProcessor(transactions, this::messageRefusal);
        LockProcessor locks = new LockProcessor(queueLocks, subscriptionGroups, topics, json, config.brokerName(),
                clock);
        MessageQueryProcessor queries = new MessageQueryProcessor(store, config.limits().maxQueryResults(),
                this::messageRefusal);
        TopicAdminProcessor topicAdmin = new TopicAdminProcessor(config, topics, offsets, consumers, store, topic -> {
            counters.forgetTopic(topic);
            pullOffsets.forget(key -> key.startsWith(topic + "@"));
        }, statistics.putWindows, json, registrations::registerSoon, clock, (ok, system, millis) ->
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
                counters, statistics, timers::figures, executors.requestPools(), clock.millis()), json, clock);
        return new BrokerProcessors(send, new InlineSends(executors.sendLane(), topics), pull, inlinePulls, client,
                reply, offsetRequests, sendBack, endTransaction, locks, LockProcessor.SMALL, stats, queries,
                topicAdmin, groupAdmin, consumerCalls, info);
    }

    /** Where sends, send-backs and transaction ends queue, for tests that need it busy. */
    SendLane sendLane() {
        return executors.sendLane();
    }

    /** How far groups have pulled, for tests of what is forgotten. */
    PullOffsets pullOffsets() {
        return pullOffsets;
    }

    /** The broker's executors by kind, for tests that need one busy. */
    Map<String, ThreadPoolExecutor> executors() {
        return executors.requestPools();
    }

    /** The broker's threads, for tests of their order at a stop. */
    BrokerExecutors threads() {
        return executors;
    }

    /** Which processor answers each request code, and where it runs. */
    RequestTable requests() {
        return requests;
    }

    /**
     * Puts users and policies in charge (before {@link #start()}): the ACL admin requests manage {@code metadata},
     * and, as {@code auth} switches them on, every request is authenticated and authorized against it.
     */
    public void controlAccess(AuthMetadata metadata, AuthConfig auth) {
        requests.route(new AuthAdminProcessor(metadata, json, auth.authenticationEnabled()), executors.query(),
                AuthAdminProcessor.CODES);
        if (auth.anyEnabled()) {
            AccessGuard guard = new AccessGuard(metadata, new RequestResources(json, config.clusterName()),
                    auth.authenticationEnabled(), auth.authorizationEnabled(), clock);
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

    /** Starts serving, registers with the name servers and starts the periodic duties. */
    public Broker start() {
        remoting.start();
        send.storeHost(new InetSocketAddress(config.host(), remoting.port()));
        registration.addresses(address(), replication.start(remoting.port(), executors.scheduler()));
        registration.registerAll();
        // a slave indexes the timers its master's log brings and takes the master's progress; it fires none
        timers.firing(!replication.isSlave());
        duties().start(lane -> switch (lane) {
            case SCHEDULER -> executors.scheduler();
            case REGISTRAR -> executors.registrar();
            case TIMER -> executors.timer();
        });
        LOG.log(System.Logger.Level.INFO, "broker {0} id {1} ({2}) of cluster {3} serving at {4}",
                config.brokerName(), config.brokerId(), config.brokerRole(), config.clusterName(), address());
        return this;
    }

    private BrokerDuties duties() {
        return new BrokerDuties(config, replication.isSlave(), new BrokerDuties.Work(registrations::registerNow,
                offsets::persistIfChanged, () -> {
                    topics.persistIfChanged();
                    subscriptionGroups.persistIfChanged();
                }, this::expireClients, hold::expire, statistics::sampleSecond, statistics::rollMinute,
                schedule::persistIfChanged, timers::tick, schedule::deliverDue, () -> {
                    transactions.checkUndecided();
                    transactions.persistIfChanged();
                }));
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

    private InetSocketAddress storeHost() {
        return send.storeHost();
    }

    private void expireClients() {
        producers.expire(config.channelExpiry());
        consumers.expire(config.channelExpiry()).forEach(notices::changed);
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
        notices.stop();
        boolean timerStopped = executors.shutdown(() -> {
            registration.unregisterAll();
            // sends waiting for a sync-flush force are answered before their connections close
            remoting.close(store::flush);
        }, STOP_WAIT);
        offsets.persist();
        topics.persist();
        subscriptionGroups.persist();
        schedule.persist();
        transactions.persist();
        if (timerStopped) {
            timers.close();
        }
        replication.close();
        nameServerClient.close();
        store.close();
        LOG.log(System.Logger.Level.INFO, "broker {0} stopped", config.brokerName());
    }
}
