package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

class CoalescedRegistrationTest {
    /** Counts registrations; fails them while {@code failing}. */
    private static final class CountingRegistration implements NameServerRegistration {
        final AtomicInteger registered = new AtomicInteger();
        final AtomicBoolean failing = new AtomicBoolean();

        @Override
        public void whenMasterNamed(BiConsumer<String, String> listener) {
        }

        @Override
        public void addresses(String address, String haAddress) {
        }

        @Override
        public int registerAll() {
            registered.incrementAndGet();
            if (failing.get()) {
                throw new IllegalStateException("name server gone");
            }
            return 1;
        }

        @Override
        public void unregisterAll() {
        }
    }

    private final CountingRegistration registration = new CountingRegistration();
    private final Queue<Runnable> registrarQueue = new ArrayDeque<>();
    private final CoalescedRegistration registrations = new CoalescedRegistration(registration, registrarQueue::add);

    private void runRegistrar() {
        for (Runnable task; (task = registrarQueue.poll()) != null; ) {
            task.run();
        }
    }

    @Test
    void shouldRegisterOnceWhenChangesComeWhileARegistrationWaits() {
        registrations.registerSoon();
        registrations.registerSoon();
        registrations.registerSoon();

        assertThat(registrarQueue).hasSize(1);
        runRegistrar();
        assertThat(registration.registered).hasValue(1);
    }

    @Test
    void shouldRegisterAgainWhenAChangeComesAfterTheWaitingRegistrationRan() {
        registrations.registerSoon();
        runRegistrar();

        registrations.registerSoon();
        registrations.registerSoon();

        assertThat(registrarQueue).as("one more, not two").hasSize(1);
        runRegistrar();
        assertThat(registration.registered).hasValue(2);
        assertThat(registrarQueue).isEmpty();
    }

    @Test
    void shouldNotThrowAtTheAskerWhenTheRegistrarIsStopped() {
        AtomicBoolean stopped = new AtomicBoolean(true);
        Queue<Runnable> queue = new ArrayDeque<>();
        Executor registrar = task -> {
            if (stopped.get()) {
                throw new RejectedExecutionException("stopped");
            }
            queue.add(task);
        };
        CoalescedRegistration stopping = new CoalescedRegistration(registration, registrar);

        assertThatCode(stopping::registerSoon).doesNotThrowAnyException();
        stopped.set(false);
        stopping.registerSoon();

        assertThat(queue).as("a refused hand-off leaves nothing pending").hasSize(1);
    }

    @Test
    void shouldKeepRegisteringWhenARegistrationFails() {
        registration.failing.set(true);

        assertThatCode(registrations::registerNow).doesNotThrowAnyException();
        registrations.registerSoon();
        assertThatCode(this::runRegistrar).doesNotThrowAnyException();
        registration.failing.set(false);
        registrations.registerNow();

        assertThat(registration.registered).hasValue(3);
    }
}
