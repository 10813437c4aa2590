package dev.ferry.store;

import dev.ferry.format.ThreadRoles;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs one {@link Duty} over and over on one thread from an injected {@link ThreadFactory}: again at once while it
 * finds work, otherwise after {@code idleWait} or a {@link #wake()}. A failing duty is logged and counted, and the loop
 * goes on. The duty object never owns a thread; this loop does.
 */
final class DutyLoop implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(DutyLoop.class.getName());

    /** One unit of background work. */
    @FunctionalInterface
    interface Duty {
        /** Does what there is to do now; returns how much (0 = idle, so the loop waits). */
        int doWork() throws Exception;
    }

    private final String role;
    private final Duty duty;
    private final long idleWaitNanos;
    private final Thread thread;
    private final AtomicLong failures = new AtomicLong();
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile boolean running = true;
    /**
     * Set by {@link #wake()}, cleared before each round: a wake-up that arrives during a round is kept here as well
     * as in the thread's park permit, which whatever the duty calls may use up (a lock, a blocking queue).
     */
    private volatile boolean woken;
    /**
     * The thread that really runs the loop. It may differ from {@link #thread}: an application
     * server's factory can hand out a stand-in whose start() submits the work elsewhere, so
     * waking and joining go through what run() records, not through the stand-in.
     */
    private volatile Thread runner;

    DutyLoop(String role, Duty duty, Duration idleWait, ThreadFactory threads) {
        this.role = role;
        this.duty = duty;
        this.idleWaitNanos = idleWait.toNanos();
        // the task names its role, so that a thread factory (a container's, a test's) can tell the loops apart
        this.thread = threads.newThread(ThreadRoles.withRole(role, this::run));
    }

    DutyLoop start() {
        thread.start();
        return this;
    }

    /** Ends the current wait early. */
    void wake() {
        woken = true;
        Thread current = runner;
        LockSupport.unpark(current != null ? current : thread);
    }

    long failures() {
        return failures.get();
    }

    private void run() {
        runner = Thread.currentThread();
        try {
            loop();
        } finally {
            finished.countDown();
        }
    }

    private void loop() {
        while (running) {
            woken = false;
            int work = 0;
            try {
                work = duty.doWork();
            } catch (Throwable t) {
                failures.incrementAndGet();
                LOG.log(Level.ERROR, role + " failed; continuing", t);
            }
            if (work == 0 && running && !woken) {
                LockSupport.parkNanos(this, idleWaitNanos);
            }
        }
    }

    /** Stops the loop and waits for the current duty cycle to finish. */
    @Override
    public void close() {
        running = false;
        wake();
        Thread current = runner;
        if (current == null && !thread.isAlive()) {
            return; // never started
        }
        if (Thread.currentThread() != current) {
            try {
                finished.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
