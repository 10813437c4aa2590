package dev.ferry.ra;

import jakarta.resource.spi.work.ExecutionContext;
import jakarta.resource.spi.work.HintsContext;
import jakarta.resource.spi.work.Work;
import jakarta.resource.spi.work.WorkContextProvider;
import jakarta.resource.spi.work.WorkException;
import jakarta.resource.spi.work.WorkListener;
import jakarta.resource.spi.work.WorkManager;
import jakarta.resource.spi.work.WorkRejectedException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/** A WorkManager that runs each work on a new plain thread, remembers the threads, and can reject. */
public final class FakeWorkManager implements WorkManager {
    private final AtomicInteger count = new AtomicInteger();
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    private final AtomicInteger running = new AtomicInteger();
    private final List<HintsContext> hints = new CopyOnWriteArrayList<>();
    private volatile boolean rejecting;

    /** From now on every work is rejected. */
    public void rejectEverything() {
        rejecting = true;
    }

    /** The threads running works now. */
    public Set<Thread> threads() {
        return Set.copyOf(threads);
    }

    public int running() {
        return running.get();
    }

    /**
     * Asserts that no work outlives the adapter's stop(). stop() returns once every adapter work has
     * finished its run(); this fake counts a work as running until its own wrapper returns a moment
     * later, so that moment is allowed, no more.
     */
    public void assertNoWorkOutlivesStop() {
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofMillis(500)).untilAsserted(() ->
                org.assertj.core.api.Assertions.assertThat(running.get()).as("works left running after stop")
                        .isZero());
    }

    /** The hints contexts works carried. */
    public List<HintsContext> hints() {
        return hints;
    }

    private Thread launch(Work work) throws WorkException {
        if (rejecting) {
            throw new WorkRejectedException("fake WorkManager rejects all work");
        }
        if (work instanceof WorkContextProvider provider && provider.getWorkContexts() != null) {
            provider.getWorkContexts().stream().filter(HintsContext.class::isInstance)
                    .map(HintsContext.class::cast).forEach(hints::add);
        }
        CountDownLatch started = new CountDownLatch(1);
        Thread thread = new Thread(() -> {
            threads.add(Thread.currentThread());
            running.incrementAndGet();
            started.countDown();
            try {
                work.run();
            } finally {
                running.decrementAndGet();
                threads.remove(Thread.currentThread());
            }
        }, "fake-wm-" + count.incrementAndGet());
        thread.setDaemon(true);
        thread.start();
        try {
            started.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return thread;
    }

    @Override
    public void doWork(Work work) throws WorkException {
        try {
            launch(work).join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void doWork(Work work, long startTimeout, ExecutionContext context, WorkListener listener)
            throws WorkException {
        doWork(work);
    }

    @Override
    public long startWork(Work work) throws WorkException {
        launch(work);
        return 0;
    }

    @Override
    public long startWork(Work work, long startTimeout, ExecutionContext context, WorkListener listener)
            throws WorkException {
        launch(work);
        return 0;
    }

    @Override
    public void scheduleWork(Work work) throws WorkException {
        launch(work);
    }

    @Override
    public void scheduleWork(Work work, long startTimeout, ExecutionContext context, WorkListener listener)
            throws WorkException {
        launch(work);
    }
}
