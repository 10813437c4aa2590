package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;

class SendLaneTest {
    /** Runs what it is given when told to, on the test's thread. */
    private final Queue<Runnable> given = new ArrayDeque<>();
    private final SendLane lane = new SendLane(given::add);

    @Test
    void shouldBeIdleOnlyWhenNoTaskWaitsOrRuns() {
        assertThat(lane.idle()).isTrue();
        boolean[] idleWhileRunning = {true};
        lane.execute(() -> idleWhileRunning[0] = lane.idle());
        lane.execute(() -> { });

        assertThat(lane.idle()).as("two waiting").isFalse();
        given.poll().run();
        assertThat(idleWhileRunning[0]).as("while the first runs").isFalse();
        assertThat(lane.idle()).as("one still waiting").isFalse();
        given.poll().run();
        assertThat(lane.idle()).isTrue();
    }

    @Test
    void shouldBeIdleAgainAfterATaskThatFailed() {
        lane.execute(() -> {
            throw new IllegalStateException("a processor's defect");
        });

        assertThatThrownBy(() -> given.poll().run()).isInstanceOf(IllegalStateException.class);
        assertThat(lane.idle()).isTrue();
    }

    @Test
    void shouldNotCountATaskItsThreadsRefused() {
        SendLane full = new SendLane(task -> {
            throw new RejectedExecutionException("queue full");
        });

        assertThatThrownBy(() -> full.execute(() -> { })).isInstanceOf(RejectedExecutionException.class);
        assertThat(full.idle()).isTrue();
    }
}
