package dev.ferry.server.broker;

import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Registers with the name servers on the registrar thread, soon after topics change and on schedule. Changes that
 * come while a registration is still waiting to run join it: a burst of topic creations costs one registration, which
 * carries all of them since it reads the topics when it runs. A failure is logged, never thrown at whoever asked.
 */
final class CoalescedRegistration {
    private static final System.Logger LOG = System.getLogger(CoalescedRegistration.class.getName());

    private final NameServerRegistration registration;
    private final Executor registrar;
    private final AtomicBoolean pending = new AtomicBoolean();

    CoalescedRegistration(NameServerRegistration registration, Executor registrar) {
        this.registration = Objects.requireNonNull(registration, "registration");
        this.registrar = Objects.requireNonNull(registrar, "registrar");
    }

    /** Registers on the registrar thread, unless a registration is already waiting there (it carries the change). */
    void registerSoon() {
        if (pending.compareAndSet(false, true)) {
            try {
                registrar.execute(() -> {
                    pending.set(false); // before reading the topics: a change from now on needs one more round
                    registerNow();
                });
            } catch (RejectedExecutionException e) {
                pending.set(false); // stopping: the name servers are told at unregistration
            }
        }
    }

    /** Registers on this thread (the registrar's schedule), logging rather than throwing a failure. */
    void registerNow() {
        try {
            registration.registerAll();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "registering with name servers failed", e);
        }
    }
}
