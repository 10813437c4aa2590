package dev.ferry.payara.arquillian;

import dev.ferry.liberty.apps.PauseMdb;
import dev.ferry.liberty.apps.PoisonConcurrentMdb;
import dev.ferry.liberty.apps.PoisonOrderlyMdb;
import dev.ferry.liberty.support.BeanOperations;
import dev.ferry.liberty.support.Engine;
import dev.ferry.liberty.support.Http;
import dev.ferry.liberty.support.TestApps;
import java.nio.file.Path;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Running beans on Payara Micro under Arquillian, the same application as on Liberty. Payara has no command that
 * pauses one bean: the Activation management bean pauses and resumes it.
 */
@ExtendWith(ArquillianExtension.class)
class PayaraBeanOperationsTest {
    private static final Http HTTP = new Http(19680);
    private static final String NAME_SERVER = "127.0.0.1:20276";
    /** What Payara hands the adapter when a bean throws: its own exception, without the bean's (it logs that). */
    private static final String PAYARA_SYSTEM_EXCEPTION = "EJBException: message-driven bean method";

    @TempDir
    Path directory;

    @Deployment(testable = false)
    static WebArchive opsApp() {
        return TestApps.opsApp();
    }

    @Test
    void shouldDeliverBatchesOfOneQueueInOrderEachInOneTransaction() {
        try (Engine engine = new Engine(NAME_SERVER, directory)) {
            new BeanOperations(HTTP, engine).batchesKeepQueueOrderEachInOneTransaction();
        }
    }

    @Test
    void shouldPauseOnlyTheQueueOfAnOrderlyPoisonMessageAndDeliverItAgainWhenResumed() {
        try (Engine engine = new Engine(NAME_SERVER, directory)) {
            new BeanOperations(HTTP, engine).poisonPausesOnlyItsQueue("PoisonOrderlyMdb", PoisonOrderlyMdb.GROUP,
                    PoisonOrderlyMdb.TOPIC, true, false, PAYARA_SYSTEM_EXCEPTION, null);
        }
    }

    @Test
    void shouldPauseOnlyTheQueueOfAConcurrentPoisonMessageAndSkipItToTheDeadLetterQueue() {
        try (Engine engine = new Engine(NAME_SERVER, directory)) {
            new BeanOperations(HTTP, engine).poisonPausesOnlyItsQueue("PoisonConcurrentMdb",
                    PoisonConcurrentMdb.GROUP, PoisonConcurrentMdb.TOPIC, false, true, PAYARA_SYSTEM_EXCEPTION, null);
        }
    }

    @Test
    void shouldWaitTheRedeliveryPolicysGrowingDelays() {
        try (Engine engine = new Engine(NAME_SERVER, directory)) {
            new BeanOperations(HTTP, engine).redeliveryWaitsGrowUpToTheirLimit();
        }
    }

    @Test
    void shouldReplayTheGroupWhileTheBeanRuns() {
        try (Engine engine = new Engine(NAME_SERVER, directory)) {
            new BeanOperations(HTTP, engine).replayWhileTheBeanRuns(null);
        }
    }

    @Test
    void shouldReleaseTheQueuesOfABeanPausedThroughItsManagementBean() {
        try (Engine engine = new Engine(NAME_SERVER, directory)) {
            BeanOperations operations = new BeanOperations(HTTP, engine);
            operations.pausedBeanReleasesItsQueues(
                    () -> operations.invoke(PauseMdb.GROUP, "pause", null, "operator-ann"),
                    () -> operations.invoke(PauseMdb.GROUP, "resume", null, "operator-ann"));
        }
    }
}
