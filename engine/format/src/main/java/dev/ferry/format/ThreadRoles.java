package dev.ferry.format;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadFactory;

/**
 * Tells a thread factory what the threads it makes are for. Each part names the role of its pools and loops
 * ({@code ferry-broker-send}, {@code ferry-store-dispatch}). Roles join when a factory already named is named again:
 * {@code named("a", named("b", threads))} gives its tasks the role {@code b-a}. A factory that reads roles
 * ({@link DaemonThreads}) names its threads after them, so a thread dump or a profile shows which thread does what; any
 * other factory runs the tasks unchanged.
 */
public final class ThreadRoles {
    private ThreadRoles() {
    }

    /** {@code threads}, each task it is given carrying {@code role} (after the role, if any, the task had). */
    public static ThreadFactory named(String role, ThreadFactory threads) {
        requireRole(role);
        Objects.requireNonNull(threads, "threads");
        return task -> threads.newThread(withRole(roleOf(task).map(inner -> role + "-" + inner).orElse(role), task));
    }

    /** {@code task}, carrying {@code role}; its {@code toString} is the role. */
    public static Runnable withRole(String role, Runnable task) {
        requireRole(role);
        Objects.requireNonNull(task, "task");
        Runnable inner = task instanceof RoleTask roled ? roled.task : task;
        return new RoleTask(role, inner);
    }

    /** The role {@code task} carries, if it was given one. */
    public static Optional<String> roleOf(Runnable task) {
        return task instanceof RoleTask roled ? Optional.of(roled.role) : Optional.empty();
    }

    private static void requireRole(String role) {
        if (role == null || role.isBlank()) {
            throw new IllegalArgumentException("a thread role must not be blank: '" + role + "'");
        }
    }

    private record RoleTask(String role, Runnable task) implements Runnable {
        @Override
        public void run() {
            task.run();
        }

        @Override
        public String toString() {
            return role;
        }
    }
}
