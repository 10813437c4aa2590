package dev.ferry.liberty.embedded;

import static dev.ferry.liberty.embedded.EmbeddedServer.HTTP;
import static dev.ferry.liberty.embedded.EmbeddedServer.LOG;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.liberty.apps.PauseMdb;
import dev.ferry.liberty.apps.PoisonConcurrentMdb;
import dev.ferry.liberty.apps.PoisonOrderlyMdb;
import dev.ferry.liberty.support.BeanOperations;
import dev.ferry.liberty.support.Engine;
import dev.ferry.liberty.support.ServerCommand;
import dev.ferry.liberty.support.TestApps;
import java.nio.file.Path;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Running beans on Liberty with the embedded engine: batches, poison queues, a redelivery policy, Liberty's own
 * {@code server pause}/{@code server resume} of one bean, and a replay, as {@link BeanOperations} checks them.
 */
@ExtendWith(ArquillianExtension.class)
class BeanOperationsTest {
    /** The pause command's target: application#module#bean. */
    private static final String PAUSE_TARGET = "--target=" + BeanOperations.APP + "#" + BeanOperations.APP
            + ".war#PauseMdb";

    @TempDir
    Path directory;

    @Deployment(testable = false)
    static WebArchive opsApp() {
        return TestApps.opsApp();
    }

    private BeanOperations operations(Engine engine) {
        return new BeanOperations(HTTP, engine);
    }

    @Test
    void shouldDeliverBatchesOfOneQueueInOrderEachInOneTransaction() {
        try (Engine engine = new Engine(EmbeddedServer.NAME_SERVER, directory)) {
            operations(engine).batchesKeepQueueOrderEachInOneTransaction();
        }
    }

    @Test
    void shouldPauseOnlyTheQueueOfAnOrderlyPoisonMessageAndDeliverItAgainWhenResumed() {
        try (Engine engine = new Engine(EmbeddedServer.NAME_SERVER, directory)) {
            operations(engine).poisonPausesOnlyItsQueue("PoisonOrderlyMdb", PoisonOrderlyMdb.GROUP,
                    PoisonOrderlyMdb.TOPIC, true, false, "cannot process poison", LOG);
        }
    }

    @Test
    void shouldPauseOnlyTheQueueOfAConcurrentPoisonMessageAndSkipItToTheDeadLetterQueue() {
        try (Engine engine = new Engine(EmbeddedServer.NAME_SERVER, directory)) {
            operations(engine).poisonPausesOnlyItsQueue("PoisonConcurrentMdb", PoisonConcurrentMdb.GROUP,
                    PoisonConcurrentMdb.TOPIC, false, true, "cannot process poison", LOG);
        }
    }

    @Test
    void shouldWaitTheRedeliveryPolicysGrowingDelays() {
        try (Engine engine = new Engine(EmbeddedServer.NAME_SERVER, directory)) {
            operations(engine).redeliveryWaitsGrowUpToTheirLimit();
        }
    }

    @Test
    void shouldReplayTheGroupWhileTheBeanRuns() {
        try (Engine engine = new Engine(EmbeddedServer.NAME_SERVER, directory)) {
            operations(engine).replayWhileTheBeanRuns(LOG);
        }
    }

    @Test
    void shouldReleaseTheQueuesOfABeanLibertysServerPausePausedUntilServerResume() {
        try (Engine engine = new Engine(EmbeddedServer.NAME_SERVER, directory)) {
            operations(engine).pausedBeanReleasesItsQueues(
                    () -> assertThat(ServerCommand.run("pause", "ferry-test", PAUSE_TARGET)).contains("completed"),
                    () -> assertThat(ServerCommand.run("resume", "ferry-test", PAUSE_TARGET)).contains("completed"));
        }
    }

    @Test
    void shouldReleaseTheQueuesOfABeanPausedThroughItsManagementBean() {
        try (Engine engine = new Engine(EmbeddedServer.NAME_SERVER, directory)) {
            BeanOperations operations = operations(engine);
            operations.pausedBeanReleasesItsQueues(
                    () -> operations.invoke(PauseMdb.GROUP, "pause", null, "operator-ann"),
                    () -> operations.invoke(PauseMdb.GROUP, "resume", null, "operator-ann"));
        }
        assertThat(LOG.linesWith("FERRY-RA-0232")).anySatisfy(line -> assertThat(line).contains("paused by "
                + "operator-ann"));
    }
}
