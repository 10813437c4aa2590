package dev.ferry.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** A {@link Later} the test drives: tasks wait in order until {@link #runAll} runs them. */
final class ManualLater implements Later {
    /** A task and the delay it asked for. */
    record Task(Duration delay, Runnable task) {
    }

    private final List<Task> waiting = new ArrayList<>();

    @Override
    public synchronized void after(Duration delay, Runnable task) {
        waiting.add(new Task(delay, task));
    }

    synchronized List<Duration> delays() {
        return waiting.stream().map(Task::delay).toList();
    }

    /** Runs what waits now (not what those tasks add). */
    void runAll() {
        List<Task> now;
        synchronized (this) {
            now = new ArrayList<>(waiting);
            waiting.clear();
        }
        now.forEach(t -> t.task().run());
    }
}
