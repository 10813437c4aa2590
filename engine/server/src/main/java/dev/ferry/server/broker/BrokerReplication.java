package dev.ferry.server.broker;

import dev.ferry.format.Clock;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.ha.HaIdentity;
import dev.ferry.remoting.ha.HaSource;
import dev.ferry.remoting.ha.HaStreamClient;
import dev.ferry.remoting.ha.HaStreamServer;
import dev.ferry.server.replica.ReplicaAcks;
import dev.ferry.server.replica.ReplicaOutcome;
import dev.ferry.server.replica.ReplicaWait;
import dev.ferry.server.replica.ReplicaWriter;
import dev.ferry.server.timer.TimerStore;
import dev.ferry.store.ReplicationLog;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * The broker's part in its broker group. A master with an HA port streams its commit log to the slaves that connect
 * and, as a SYNC_MASTER, answers sends once a slave has them; a slave refuses writes, copies its master's commit log
 * (from the HA address the name server names) and, every {@link BrokerConfig#slaveSyncInterval()}, its topics,
 * groups and offsets, and serves reads.
 */
final class BrokerReplication implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(BrokerReplication.class.getName());
    /** Apache's haMaxGapNotInSync: a slave further behind is not waited for. */
    static final long MAX_GAP = 256L << 20;

    private final BrokerConfig config;
    private final ReplicationLog store;
    private final MasterCopy copy;
    private final ThreadFactory threads;
    private final Clock clock;
    private final ReplicaAcks acks;
    private volatile HaStreamServer server;
    private volatile HaStreamClient client;
    private volatile ScheduledExecutorService scheduler;
    private volatile String masterAddress;
    private volatile String haAddress = "";

    BrokerReplication(BrokerConfig config, ReplicationLog store, MasterCopy copy, Duration slaveTimeout,
                      ThreadFactory threads, Clock clock) {
        this.config = config;
        this.store = store;
        this.copy = copy;
        this.threads = threads;
        this.clock = clock;
        this.acks = config.brokerRole() == BrokerRole.SYNC_MASTER ? new ReplicaAcks(slaveTimeout, MAX_GAP, clock)
                : null;
    }

    boolean isSlave() {
        return !config.brokerRole().isMaster();
    }

    /** What a send waits for before it is answered. */
    ReplicaWait sendWait() {
        return acks != null ? acks : ReplicaWait.NONE;
    }

    /** Registers what this role answers: a master its slaves' copy requests, a slave its refusal of writes. */
    void registerProcessors(RequestTable requests, ConsumerOffsetTable offsets, ScheduleService schedule,
                            TimerStore timers, Clock clock, BodyCodec json, Executor admin, Executor send) {
        requests.route(new SlaveCopyProcessor(offsets, schedule, json, timers, clock), admin,
                SlaveCopyProcessor.CODES);
        if (isSlave()) {
            // what would write to the log is refused in place of its processor
            requests.replace(new SlaveRefusal(config), send, SlaveRefusal.CODES);
        }
    }

    /**
     * Starts the role's part once the broker listens on {@code brokerPort}; returns the HA address to register
     * (empty when it serves no slaves).
     */
    String start(int brokerPort, ScheduledExecutorService scheduler) {
        this.scheduler = scheduler;
        if (isSlave()) {
            if (config.haPort() != 0) {
                LOG.log(System.Logger.Level.WARNING, "haListenPort {0} is not opened: a SLAVE serves no "
                        + "replication, and Ferry does not promote a running slave; the port is used once this "
                        + "broker is restarted as its group''s master (brokerRole ASYNC_MASTER or SYNC_MASTER, "
                        + "brokerId 0)", String.valueOf(config.haPort()));
            }
            client = new HaStreamClient(new ReplicaWriter(log()), identity(), threads, clock);
            config.haMasterAddress().ifPresent(client::master); // fixed: replicate before any name server answers
            long every = config.slaveSyncInterval().toMillis();
            scheduler.scheduleWithFixedDelay(this::copyFromMaster, every, every, TimeUnit.MILLISECONDS);
            return "";
        }
        int haPort = config.haPort(brokerPort);
        if (haPort < 0) {
            return "";
        }
        server = new HaStreamServer(identity(), config.haLimits(), config.listenHost(), haPort, source(), acks != null
                ? acks : new ReplicaAcks(Duration.ofSeconds(1), MAX_GAP, clock), threads, clock);
        int bound = server.start();
        if (acks != null) {
            scheduler.scheduleWithFixedDelay(acks::expireOverdue, 100, 100, TimeUnit.MILLISECONDS);
        }
        haAddress = config.host() + ":" + bound;
        return haAddress;
    }

    /**
     * Who this broker is on the HA port: a master admits only slaves of its name and, with authentication on, holding
     * the credentials it signs its own requests with; a slave proves it is one with its own.
     */
    private HaIdentity identity() {
        return new HaIdentity(config.brokerName(), config.brokerId(), config.nameServerCredentials());
    }

    /** Where this master serves its slaves ({@code host:port}), or empty. */
    String haAddress() {
        return haAddress;
    }

    /** A name server named this group's master: a slave replicates from it and copies its tables at once. */
    void masterNamed(String address, String haAddress) {
        if (!isSlave() || address == null) {
            return;
        }
        boolean first = !address.equals(masterAddress);
        masterAddress = address;
        // a configured haMasterAddress stands: the name servers' address of the master's HA port is not used
        boolean followNameServers = config.haMasterAddress().isEmpty();
        if (followNameServers && (haAddress == null || haAddress.isEmpty())) {
            if (first) {
                LOG.log(System.Logger.Level.WARNING, "master {0} of {1} serves no replication (an ASYNC_MASTER "
                        + "needs haListenPort): this slave copies its topics and offsets, not its messages", address,
                        config.brokerName());
            }
        } else if (followNameServers && client != null) {
            client.master(haAddress);
        }
        ScheduledExecutorService tasks = scheduler;
        if (first && tasks != null) {
            tasks.execute(this::copyFromMaster); // off the thread that read the name server's answer
        }
    }

    private void copyFromMaster() {
        String master = masterAddress;
        if (master != null) {
            copy.copyFrom(master);
        }
    }

    /** Something was appended: slaves waiting idle get it now. */
    void appended() {
        HaStreamServer current = server;
        if (current != null) {
            current.appended();
        }
    }

    /** Slaves connected (a master), or whether it is connected to its master (a slave: 1 or 0). */
    int links() {
        if (client != null) {
            return client.connected() ? 1 : 0;
        }
        return server == null ? 0 : server.slaves();
    }

    private HaSource source() {
        return new HaSource() {
            @Override
            public long minOffset() {
                return store.commitLogMinOffset();
            }

            @Override
            public long endOffset() {
                return store.replicableEndOffset();
            }

            @Override
            public Optional<ByteBuffer> read(long offset, int maxBytes) {
                return store.replicaChunk(offset, maxBytes);
            }
        };
    }

    private ReplicaWriter.Log log() {
        return new ReplicaWriter.Log() {
            @Override
            public long endOffset() {
                return store.commitLogEndOffset();
            }

            @Override
            public long append(long offset, ByteBuffer entries) {
                return store.appendReplicated(offset, entries);
            }

            @Override
            public int maxEntrySize() {
                return store.maxEntrySize();
            }
        };
    }

    @Override
    public void close() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
        if (acks != null) {
            acks.drain(ReplicaOutcome.SLAVE_NOT_AVAILABLE);
        }
        LOG.log(System.Logger.Level.DEBUG, "replication of {0} closed", config.brokerName());
    }
}
