package dev.ferry.server.broker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * What the broker does on schedule, how often, and on which of its threads: persistence, expiry, statistics and
 * registration on the scheduler and the registrar, the timer store's ticks on its own thread, and, on a master only
 * (a slave's log is written by its master alone), delivering delayed messages and checking undecided transactions.
 * Each duty runs so that one failure is logged and neither stops the schedule nor the other duties.
 */
final class BrokerDuties {
    private static final System.Logger LOG = System.getLogger(BrokerDuties.class.getName());
    /** How often due delayed messages are looked for: the most a delivery can be late by, plus the move. */
    static final Duration DELAY_POLL = Duration.ofMillis(100);
    /** How often the timer thread looks for new timers and due slots: a small part of a slot's lateness. */
    static final Duration TIMER_TICK = Duration.ofMillis(10);
    /** How soon a new topic or group is on disk: one write per round however many were created. */
    static final Duration TABLE_PERSIST = Duration.ofMillis(200);
    static final Duration CLIENT_EXPIRY_SCAN = Duration.ofSeconds(10);
    static final Duration PULL_EXPIRY_SCAN = Duration.ofMillis(200);

    /** The thread a duty runs on. */
    enum Lane { SCHEDULER, REGISTRAR, TIMER }

    /**
     * One periodic duty: first run after {@code every}; {@code atFixedRate} keeps its runs on the clock's seconds
     * (statistics), otherwise {@code every} separates the end of one run from the start of the next.
     */
    record Duty(String what, Lane lane, Duration every, boolean atFixedRate, Runnable action) {
        Duty {
            Objects.requireNonNull(what, "what");
            Objects.requireNonNull(lane, "lane");
            Objects.requireNonNull(action, "action");
            if (every.isNegative() || every.isZero()) {
                throw new IllegalArgumentException("duty '" + what + "' needs a positive period, not " + every);
            }
        }

        /** The action, logging rather than throwing a failure, so that the next run still comes. */
        void runQuietly() {
            try {
                action.run();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, what + " failed", e);
            }
        }
    }

    /** The work each duty does, from the parts that own it. */
    record Work(Runnable register, Runnable persistOffsets, Runnable persistTables, Runnable expireClients,
                Runnable expirePulls, Runnable sampleSecond, Runnable rollMinute, Runnable persistDelays,
                Runnable tickTimers, Runnable deliverDelays, Runnable checkTransactions) {
    }

    private final List<Duty> duties;

    /** The duties of a broker configured by {@code config}; {@code slave} leaves out those that write to the log. */
    BrokerDuties(BrokerConfig config, boolean slave, Work work) {
        Duration persist = config.offsetPersistInterval();
        List<Duty> all = new ArrayList<>(List.of(
                new Duty("registering with name servers", Lane.REGISTRAR, config.registerInterval(), false,
                        work.register()),
                new Duty("persisting consumer offsets", Lane.SCHEDULER, persist, false, work.persistOffsets()),
                new Duty("persisting topics and groups", Lane.SCHEDULER, TABLE_PERSIST, false, work.persistTables()),
                new Duty("expiring silent clients", Lane.SCHEDULER, CLIENT_EXPIRY_SCAN, false, work.expireClients()),
                new Duty("expiring held pulls", Lane.SCHEDULER, PULL_EXPIRY_SCAN, false, work.expirePulls()),
                new Duty("sampling throughput", Lane.SCHEDULER, Duration.ofSeconds(1), true, work.sampleSecond()),
                new Duty("rolling statistics", Lane.SCHEDULER, Duration.ofMinutes(1), true, work.rollMinute()),
                new Duty("persisting delay progress", Lane.SCHEDULER, persist, false, work.persistDelays()),
                new Duty("holding timer messages", Lane.TIMER, TIMER_TICK, false, work.tickTimers())));
        if (!slave) {
            all.add(new Duty("delivering delayed messages", Lane.SCHEDULER, DELAY_POLL, false, work.deliverDelays()));
            all.add(new Duty("checking transactions", Lane.SCHEDULER, config.transactionCheckInterval(), false,
                    work.checkTransactions()));
        }
        this.duties = List.copyOf(all);
    }

    List<Duty> duties() {
        return duties;
    }

    /** Schedules every duty on the executor {@code lanes} gives for its lane. */
    void start(Function<Lane, ScheduledExecutorService> lanes) {
        for (Duty duty : duties) {
            ScheduledExecutorService executor = lanes.apply(duty.lane());
            long every = duty.every().toMillis();
            if (duty.atFixedRate()) {
                executor.scheduleAtFixedRate(duty::runQuietly, every, every, TimeUnit.MILLISECONDS);
            } else {
                executor.scheduleWithFixedDelay(duty::runQuietly, every, every, TimeUnit.MILLISECONDS);
            }
        }
    }
}
