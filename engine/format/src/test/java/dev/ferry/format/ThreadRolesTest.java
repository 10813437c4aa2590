package dev.ferry.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ThreadRolesTest {

    /** Records what it is asked to run, and runs nothing. */
    private final List<Runnable> given = new ArrayList<>();
    private final ThreadFactory recording = task -> {
        given.add(task);
        return new Thread(task);
    };

    @Test
    void aNamedFactoryHandsEachTaskOnCarryingItsRole() {
        ThreadRoles.named("ferry-broker-send", recording).newThread(() -> { });

        assertThat(ThreadRoles.roleOf(given.get(0))).contains("ferry-broker-send");
        assertThat(given.get(0)).hasToString("ferry-broker-send");
    }

    @Test
    void anOwnersRolePrefixesTheRoleItsPartGave() {
        ThreadFactory broker = ThreadRoles.named("ferry-broker", recording);
        ThreadRoles.named("io", broker).newThread(() -> { });

        assertThat(ThreadRoles.roleOf(given.get(0))).contains("ferry-broker-io");
    }

    @Test
    void theTaskRunsUnchangedUnderItsRole() {
        AtomicInteger runs = new AtomicInteger();
        ThreadRoles.named("a", ThreadRoles.named("b", recording)).newThread(runs::incrementAndGet);

        given.get(0).run();

        assertThat(runs).hasValue(1);
    }

    @Test
    void aTaskGivenNoRoleHasNone() {
        assertThat(ThreadRoles.roleOf(() -> { })).isEmpty();
    }

    @Test
    void aBlankRoleIsRefused() {
        assertThatThrownBy(() -> ThreadRoles.named(" ", recording)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("thread role");
        assertThatThrownBy(() -> ThreadRoles.withRole(null, () -> { }))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void threadsAreNamedForTheirRoleCountedPerRoleAndElseForThePrefix() {
        DaemonThreads threads = new DaemonThreads("ferry");

        assertThat(threads.newThread(ThreadRoles.withRole("ferry-broker-pull", () -> { })).getName())
                .isEqualTo("ferry-broker-pull-1");
        assertThat(threads.newThread(ThreadRoles.withRole("ferry-broker-pull", () -> { })).getName())
                .isEqualTo("ferry-broker-pull-2");
        assertThat(threads.newThread(ThreadRoles.withRole("ferry-store-dispatch", () -> { })).getName())
                .isEqualTo("ferry-store-dispatch-1");
        assertThat(threads.newThread(() -> { }).getName()).isEqualTo("ferry-1");
    }

    @Test
    void daemonThreadsAreDaemonsNamedForTheirRole() {
        Thread thread = ThreadRoles.named("ferry-namesrv-expiry", new DaemonThreads("ferry")).newThread(() -> { });

        assertThat(thread.getName()).isEqualTo("ferry-namesrv-expiry-1");
        assertThat(thread.isDaemon()).isTrue();
    }
}
