package dev.ferry.store;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/** A duty loop with nothing to do waits for a wake-up, and keeps one that came while its duty ran. */
class DutyLoopTest {
    private static final Duration AN_HOUR = Duration.ofHours(1);
    private static final ThreadFactory DAEMONS = task -> {
        Thread thread = new Thread(task);
        thread.setDaemon(true);
        return thread;
    };

    @Test
    void idleLoopRunsItsDutyAgainOnlyWhenWoken() {
        AtomicInteger rounds = new AtomicInteger();
        try (DutyLoop loop = new DutyLoop("test-idle", () -> {
            rounds.incrementAndGet();
            return 0;
        }, AN_HOUR, DAEMONS).start()) {
            await().atMost(Duration.ofSeconds(5)).until(() -> rounds.get() == 1);
            await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> rounds.get() == 1);
            loop.wake();
            await().atMost(Duration.ofSeconds(5)).until(() -> rounds.get() == 2);
        }
    }

    @Test
    void wakeUpDuringARoundIsKeptWhenTheDutyUsesUpThePark() {
        AtomicInteger rounds = new AtomicInteger();
        AtomicReference<DutyLoop> self = new AtomicReference<>();
        DutyLoop loop = new DutyLoop("test-woken-mid-round", () -> {
            if (rounds.incrementAndGet() == 1) {
                self.get().wake();
                // as a lock or a blocking queue inside the duty would: this takes the permit the wake-up left
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            return 0;
        }, AN_HOUR, DAEMONS);
        self.set(loop);
        try (loop) {
            loop.start();
            await().atMost(Duration.ofSeconds(5)).until(() -> rounds.get() == 2);
        }
    }
}
