package dev.ferry.server.timer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.ManualClock;
import dev.ferry.format.MessageProperties;
import dev.ferry.store.AppendResult;
import dev.ferry.store.MessageStore;
import dev.ferry.store.MessageToStore;
import dev.ferry.store.StoreConfig;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The timer store's memory does not grow with the number of waiting timers. */
class TimerMemoryTest {
    private static final int TIMERS = 1_000_000;
    /** What the store may add to the heap with a million timers waiting: its ring (5 MiB) and one batch. */
    private static final long HEAP_BOUND_BYTES = 32L << 20;
    private static final InetSocketAddress HOST = new InetSocketAddress("127.0.0.1", 10911);

    @TempDir
    Path dir;

    @Test
    void shouldHoldAMillionWaitingTimersWithinAFixedHeapBound() throws Exception {
        ManualClock clock = new ManualClock(1_700_000_000_000L);
        try (MessageStore store = MessageStore.builder(StoreConfig.builder(dir.resolve("store"))
                .commitLogSegmentSize(256 << 20).build()).clock(clock).open()) {
            TimerStore timers = new TimerStore(TimerSettings.defaults(), store, dir.resolve("timer"), clock,
                    () -> HOST, topic -> true);
            timers.firing(true);
            TimerRouting routing = new TimerRouting(TimerSettings.defaults(), clock, timers::slotCount);
            long before = settledHeap();

            SplittableRandom random = new SplittableRandom(44);
            long threeDays = Duration.ofDays(3).toMillis();
            CompletableFuture<AppendResult> last = null;
            for (int i = 0; i < TIMERS; i++) {
                long deliverMs = clock.millis() + 1_000 + random.nextLong(threeDays - 2_000);
                MessageToStore message = MessageToStore.builder("orders", i % 4, new byte[16])
                        .properties(MessageProperties.format(Map.of(MessageProperties.TIMER_DELIVER_MS,
                                Long.toString(deliverMs), MessageProperties.UNIQ_KEY, "k" + i)))
                        .bornHost(HOST).storeHost(HOST).build();
                last = store.appendAsync(routing.route(message).message());
                if (i % 50_000 == 0) {
                    timers.tick(); // indexing runs along with the sends, as on a broker
                }
            }
            assertThat(last.join().isStored()).isTrue();
            long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
            while (timers.figures().waiting() < TIMERS && System.nanoTime() < deadline) {
                timers.tick();
            }
            assertThat(timers.figures().waiting()).isEqualTo(TIMERS);
            assertThat(timers.figures().enqueueLag()).isZero();

            long after = settledHeap();
            assertThat(after - before).as("heap added with %d timers waiting", TIMERS)
                    .isLessThan(HEAP_BOUND_BYTES);
            timers.close();
        }
    }

    private static long settledHeap() throws InterruptedException {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(50); // lets the collector finish; the figure is the least seen, not a timing
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
