package dev.ferry.server.broker;

import dev.ferry.format.ThreadRoles;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The broker's threads: a bounded pool per kind of request (one send thread, which keeps a producer's order, four for
 * pulls, two for client bookkeeping, one for queries and one for administration), the scheduler of periodic duties,
 * the registrar that talks to name servers, and the timer store's one thread. All come from the given factory, named
 * by role ({@code ferry-broker-send}, ...).
 *
 * <p>{@link #shutdown} stops them in the order a clean stop needs: duties first, then what must happen while requests
 * can still be answered, then the request pools, which finish what they queued.
 */
final class BrokerExecutors {
    private final ThreadPoolExecutor send;
    private final SendLane sendLane;
    private final ThreadPoolExecutor pull;
    private final ThreadPoolExecutor client;
    private final ThreadPoolExecutor query;
    /** Admin requests run apart from queries: a topic deletion waits for the store. */
    private final ThreadPoolExecutor admin;
    private final ScheduledExecutorService scheduler;
    /** Registration runs apart: a name server slow to answer must not hold up pulls' expiry or delayed messages. */
    private final ScheduledExecutorService registrar;
    /** The timer store's one thread: it indexes, fires and saves. */
    private final ScheduledExecutorService timer;

    BrokerExecutors(BrokerLimits limits, ThreadFactory threadFactory) {
        // Bounded like Apache's, so a flood of one kind is answered SYSTEM_BUSY and the others still served.
        this.send = boundedPool(1, limits.sendQueueCapacity(), ThreadRoles.named("ferry-broker-send", threadFactory));
        this.sendLane = new SendLane(send);
        this.pull = boundedPool(4, limits.pullQueueCapacity(), ThreadRoles.named("ferry-broker-pull", threadFactory));
        this.client = boundedPool(2, limits.clientQueueCapacity(),
                ThreadRoles.named("ferry-broker-client", threadFactory));
        this.query = boundedPool(1, limits.queryQueueCapacity(), ThreadRoles.named("ferry-broker-query", threadFactory));
        this.admin = boundedPool(1, limits.queryQueueCapacity(), ThreadRoles.named("ferry-broker-admin", threadFactory));
        this.scheduler = Executors.newSingleThreadScheduledExecutor(
                ThreadRoles.named("ferry-broker-schedule", threadFactory));
        this.registrar = Executors.newSingleThreadScheduledExecutor(
                ThreadRoles.named("ferry-broker-register", threadFactory));
        this.timer = Executors.newSingleThreadScheduledExecutor(ThreadRoles.named("ferry-broker-timer", threadFactory));
    }

    /** A fixed pool whose queue holds at most {@code capacity} tasks; beyond, execute throws (SYSTEM_BUSY). */
    private static ThreadPoolExecutor boundedPool(int threads, int capacity, ThreadFactory threadFactory) {
        return new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(capacity),
                threadFactory);
    }

    /** Where sends, send-backs and transaction ends queue, in arrival order. */
    SendLane sendLane() {
        return sendLane;
    }

    ThreadPoolExecutor pull() {
        return pull;
    }

    ThreadPoolExecutor client() {
        return client;
    }

    ThreadPoolExecutor query() {
        return query;
    }

    ThreadPoolExecutor admin() {
        return admin;
    }

    ScheduledExecutorService scheduler() {
        return scheduler;
    }

    ScheduledExecutorService registrar() {
        return registrar;
    }

    ScheduledExecutorService timer() {
        return timer;
    }

    /** The request pools by kind, for figures and for tests that need one busy. */
    Map<String, ThreadPoolExecutor> requestPools() {
        return Map.of("send", send, "pull", pull, "client", client, "query", query, "admin", admin);
    }

    /**
     * Stops every thread, in order: the scheduler and the registrar at once (their duties are interrupted), the timer
     * thread after its current tick (an interrupt would close the timer log's files under it); then
     * {@code whileRequestsRun} (unregistering, closing connections, while queued requests can still be answered);
     * then the request pools, which finish what they queued. Waits up to {@code eachWait} for each.
     *
     * @return whether the timer thread has stopped, so that what it writes may be closed
     */
    boolean shutdown(Runnable whileRequestsRun, Duration eachWait) {
        scheduler.shutdownNow();
        registrar.shutdownNow();
        timer.shutdown();
        try {
            whileRequestsRun.run();
        } finally {
            List<ExecutorService> requests = List.of(send, pull, client, query, admin);
            requests.forEach(ExecutorService::shutdown);
            try {
                for (ExecutorService executor : List.of(scheduler, registrar, timer, send, pull, client, query,
                        admin)) {
                    executor.awaitTermination(eachWait.toMillis(), TimeUnit.MILLISECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return timer.isTerminated();
    }
}
