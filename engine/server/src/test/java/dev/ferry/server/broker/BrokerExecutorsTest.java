package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ferry.format.ThreadRoles;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BrokerExecutorsTest {
    private static final Duration WAIT = Duration.ofSeconds(5);

    private final List<String> roles = new CopyOnWriteArrayList<>();
    private final ThreadFactory threads = task -> {
        roles.add(ThreadRoles.roleOf(task).orElse("none"));
        Thread thread = new Thread(task);
        thread.setDaemon(true);
        return thread;
    };
    private final BrokerExecutors executors = new BrokerExecutors(BrokerLimits.defaults(), threads);

    @AfterEach
    void stop() {
        executors.shutdown(() -> { }, WAIT);
    }

    /** Tells it started, then waits for {@code mayEnd}, telling whether it was interrupted instead. */
    private static Runnable waitFor(CountDownLatch mayEnd, CountDownLatch started, AtomicBoolean interrupted) {
        return () -> {
            started.countDown();
            try {
                mayEnd.await();
            } catch (InterruptedException e) {
                interrupted.set(true);
            }
        };
    }

    @Test
    void shouldNameEveryThreadAfterItsRole() throws InterruptedException {
        CountDownLatch ran = new CountDownLatch(8);
        executors.sendLane().execute(ran::countDown);
        for (ExecutorService executor : List.of(executors.pull(), executors.client(), executors.query(),
                executors.admin(), executors.scheduler(), executors.registrar(), executors.timer())) {
            executor.execute(ran::countDown);
        }

        assertThat(ran.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(roles).contains("ferry-broker-send", "ferry-broker-pull", "ferry-broker-client",
                "ferry-broker-query", "ferry-broker-admin", "ferry-broker-schedule", "ferry-broker-register",
                "ferry-broker-timer");
    }

    @Test
    void shouldOfferTheRequestPoolsByKind() {
        Map<String, ?> pools = executors.requestPools();

        assertThat(pools).containsOnlyKeys("send", "pull", "client", "query", "admin");
        assertThat(pools.get("pull")).isSameAs(executors.pull());
        assertThat(executors.pull().getMaximumPoolSize()).isEqualTo(4);
        assertThat(executors.requestPools().get("send").getMaximumPoolSize()).as("keeps a producer's order")
                .isEqualTo(1);
    }

    @Test
    void shouldRefuseARequestWhenItsKindsQueueIsFull() throws InterruptedException {
        BrokerLimits limits = BrokerLimits.defaults();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch busy = new CountDownLatch(1);
        executors.query().execute(waitFor(release, busy, new AtomicBoolean()));
        assertThat(busy.await(5, TimeUnit.SECONDS)).isTrue();
        for (int i = 0; i < limits.queryQueueCapacity(); i++) {
            executors.query().execute(() -> { });
        }

        assertThatThrownBy(() -> executors.query().execute(() -> { }))
                .isInstanceOf(RejectedExecutionException.class);
        executors.client().execute(() -> { }); // the other kinds are still served
        release.countDown();
    }

    @Test
    void shouldStopDutiesBeforeRequestsAndFinishQueuedRequestsWhenShuttingDown() throws InterruptedException {
        CountDownLatch dutyStarted = new CountDownLatch(1);
        AtomicBoolean dutyInterrupted = new AtomicBoolean();
        executors.scheduler().execute(waitFor(new CountDownLatch(1), dutyStarted, dutyInterrupted));
        assertThat(dutyStarted.await(5, TimeUnit.SECONDS)).isTrue();
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean queuedRan = new AtomicBoolean();
        executors.sendLane().execute(waitFor(release, new CountDownLatch(1), new AtomicBoolean()));
        executors.sendLane().execute(() -> queuedRan.set(true));
        List<Boolean> seenInBetween = new CopyOnWriteArrayList<>();

        boolean timerStopped = executors.shutdown(() -> {
            seenInBetween.addAll(List.of(executors.scheduler().isShutdown(), executors.registrar().isShutdown(),
                    executors.timer().isShutdown(), executors.requestPools().get("send").isShutdown()));
            release.countDown();
        }, WAIT);

        assertThat(seenInBetween).as("duties stopped, requests still taken").containsExactly(true, true, true, false);
        assertThat(dutyInterrupted).as("a duty is interrupted").isTrue();
        assertThat(queuedRan).as("a queued request is answered").isTrue();
        assertThat(timerStopped).isTrue();
        assertThat(executors.requestPools().values()).allMatch(ExecutorService::isTerminated);
        assertThat(executors.scheduler().isTerminated()).isTrue();
    }

    @Test
    void shouldLetTheTimersTickFinishWithoutAnInterruptWhenShuttingDown() throws InterruptedException {
        CountDownLatch tickStarted = new CountDownLatch(1);
        CountDownLatch tickMayEnd = new CountDownLatch(1);
        AtomicBoolean tickInterrupted = new AtomicBoolean();
        executors.timer().execute(waitFor(tickMayEnd, tickStarted, tickInterrupted));
        assertThat(tickStarted.await(5, TimeUnit.SECONDS)).isTrue();

        boolean timerStopped = executors.shutdown(tickMayEnd::countDown, WAIT);

        assertThat(tickInterrupted).isFalse();
        assertThat(timerStopped).isTrue();
    }

    @Test
    void shouldTellWhenTheTimerOutlastsTheWait() throws InterruptedException {
        CountDownLatch tickStarted = new CountDownLatch(1);
        CountDownLatch tickMayEnd = new CountDownLatch(1);
        executors.timer().execute(waitFor(tickMayEnd, tickStarted, new AtomicBoolean()));
        assertThat(tickStarted.await(5, TimeUnit.SECONDS)).isTrue();

        boolean timerStopped = executors.shutdown(() -> { }, Duration.ofMillis(50));

        assertThat(timerStopped).as("what the timer writes must stay open").isFalse();
        tickMayEnd.countDown();
        await().atMost(WAIT).until(executors.timer()::isTerminated);
    }

    @Test
    void shouldStopRequestPoolsEvenWhenTheStepInBetweenFails() {
        assertThatThrownBy(() -> executors.shutdown(() -> {
            throw new IllegalStateException("cannot close connections");
        }, WAIT)).hasMessage("cannot close connections");

        assertThat(executors.requestPools().values()).allMatch(ExecutorService::isShutdown);
    }
}
