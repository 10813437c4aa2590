package dev.ferry.ra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import jakarta.resource.spi.work.HintsContext;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/** Threads made of WorkManager works. */
class WorkManagerThreadFactoryTest {
    private final FakeWorkManager workManager = new FakeWorkManager();
    private final ClassLoader adapterLoader = new ClassLoader(getClass().getClassLoader()) { };
    private final WorkManagerThreadFactory factory = new WorkManagerThreadFactory(workManager,
            WorkManagerThreadFactory.Placement.WORK, "ferry-test", true, adapterLoader);
    private final WorkManagerThreadFactory spawning = new WorkManagerThreadFactory(workManager,
            WorkManagerThreadFactory.Placement.SPAWNED, "ferry-spawned", true, adapterLoader);

    @Test
    void shouldRunTheTaskOnAWorkManagerThreadNamedAfterTheStandIn() throws Exception {
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        AtomicReference<String> name = new AtomicReference<>();
        AtomicReference<ClassLoader> loader = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        Thread standIn = factory.newThread(() -> {
            ranOn.set(Thread.currentThread());
            name.set(Thread.currentThread().getName());
            loader.set(Thread.currentThread().getContextClassLoader());
            done.countDown();
        });
        standIn.start();
        assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(ranOn.get()).isNotSameAs(standIn);
        assertThat(name.get()).isEqualTo("ferry-test-1").isEqualTo(standIn.getName());
        assertThat(loader.get()).isSameAs(adapterLoader);
        await().atMost(Duration.ofSeconds(5)).until(() -> factory.runningWorks() == 0);
        // the work leaves the running ones before it hands the thread back under its own name
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(ranOn.get().getName())
                .as("the server's name is restored").startsWith("fake-wm-"));
        assertThat(workManager.hints()).singleElement().satisfies(h -> assertThat(h.getName()).isEqualTo("ferry-test-1"));
        assertThatThrownBy(standIn::start).isInstanceOf(IllegalThreadStateException.class);
    }

    @Test
    void shouldHandOutTheRealSpawnedThreadMadeByAWorkAndGiveTheServersThreadBackAtOnce() throws Exception {
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        AtomicReference<ClassLoader> loader = new AtomicReference<>();
        CountDownLatch started = new CountDownLatch(1);
        Thread thread = spawning.newThread(() -> {
            ranOn.set(Thread.currentThread());
            loader.set(Thread.currentThread().getContextClassLoader());
            started.countDown();
            LockSupport.park(); // until the caller unparks the thread it was given
        });
        assertThat(workManager.hints()).as("made by a short work of the server's").singleElement()
                .satisfies(h -> assertThat(h.getHints().get(HintsContext.LONGRUNNING_HINT)).isEqualTo(false));
        assertThat(workManager.running()).isZero();
        thread.start();
        assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(ranOn.get()).isSameAs(thread);
        assertThat(spawning.runningWorks()).isEqualTo(1);
        assertThat(thread.getName()).isEqualTo("ferry-spawned-1");
        assertThat(thread.isDaemon()).isTrue();
        assertThat(loader.get()).isSameAs(adapterLoader);

        LockSupport.unpark(thread);
        thread.join(5_000);

        assertThat(thread.isAlive()).as("unpark and join reach it").isFalse();
        await().atMost(Duration.ofSeconds(5)).until(() -> spawning.runningWorks() == 0);
    }

    @Test
    void shouldRefuseToMakeASpawnedThreadWhenTheWorkManagerRejects() {
        workManager.rejectEverything();
        assertThatThrownBy(() -> spawning.newThread(() -> { })).isInstanceOf(RejectedExecutionException.class)
                .hasMessageContaining("FERRY-RA-0101 the WorkManager rejected thread 'ferry-spawned-1'");
    }

    @Test
    void shouldLetAnExecutorStopItsIdleSpawnedWorkersByInterruptingThem() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(3, spawning);
        for (int i = 0; i < 3; i++) {
            pool.execute(() -> { });
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> spawning.runningWorks() == 3);
        pool.shutdown();
        assertThat(pool.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
        await().atMost(Duration.ofSeconds(5)).until(() -> spawning.runningWorks() == 0);
    }

    @Test
    void shouldLetAnExecutorStopItsIdleWorkersByInterruptingThem() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(3, factory);
        for (int i = 0; i < 3; i++) {
            pool.execute(() -> { });
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> factory.runningWorks() == 3);
        pool.shutdown(); // idle workers wait in take(); only an interrupt reaching them ends them
        assertThat(pool.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
        await().atMost(Duration.ofSeconds(5)).until(() -> factory.runningWorks() == 0 && workManager.running() == 0);
    }

    @Test
    void shouldDeliverAnInterruptThatCameBeforeTheWorkStarted() throws Exception {
        AtomicReference<Boolean> interrupted = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        Thread standIn = factory.newThread(() -> {
            interrupted.set(Thread.currentThread().isInterrupted());
            done.countDown();
        });
        standIn.interrupt();
        assertThat(standIn.isInterrupted()).isTrue();
        standIn.start();
        assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(interrupted.get()).isTrue();
    }

    @Test
    void shouldStartARefusedThreadOnItsOwnOnceTheAdapterStops() throws Exception {
        workManager.rejectEverything();
        spawning.named("ferry-closing").stopping(); // one flag for every factory of the adapter
        AtomicReference<String> ranOn = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        Thread standIn = spawning.newThread(() -> {
            ranOn.set(Thread.currentThread().getName());
            done.countDown();
        });
        standIn.start();
        assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(ranOn.get()).isEqualTo("ferry-spawned-1");
    }

    @Test
    void shouldRefuseToStartWhenTheWorkManagerRejects() {
        workManager.rejectEverything();
        Thread standIn = factory.newThread(() -> { });
        assertThatThrownBy(standIn::start).isInstanceOf(RejectedExecutionException.class)
                .hasMessageContaining("FERRY-RA-0101 the WorkManager rejected thread 'ferry-test-1'");
        ExecutorService pool = Executors.newSingleThreadExecutor(factory);
        assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(RejectedExecutionException.class);
        pool.shutdown();
    }
}
