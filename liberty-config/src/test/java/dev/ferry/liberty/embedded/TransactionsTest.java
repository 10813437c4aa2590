package dev.ferry.liberty.embedded;

import static dev.ferry.liberty.embedded.EmbeddedServer.HTTP;

import dev.ferry.liberty.apps.TxMdb;
import dev.ferry.liberty.apps.TxResource;
import dev.ferry.liberty.apps.TxService;
import dev.ferry.liberty.support.TestApps;
import dev.ferry.liberty.support.TxRoundTrip;
import java.nio.file.Path;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ferry in Liberty's JTA transactions, with a row of an embedded Derby database (XA) in the same transaction: a send
 * is delivered with its row when the transaction commits and neither exists after a rollback; a bean delivered in the
 * container's transaction has its message delivered again after a rollback, and its row written once, by the attempt
 * that committed.
 */
@ExtendWith(ArquillianExtension.class)
class TransactionsTest {
    @TempDir
    Path directory;

    @Deployment(testable = false)
    static WebArchive txApp() {
        return TestApps.probeApp("tx-app", TxResource.class, TxService.class, TxMdb.class);
    }

    @Test
    void shouldDeliverASendWithItsRowOnCommitAndLeaveNeitherOnRollback() {
        TxRoundTrip.commitAndRollback(HTTP, "tx-app", EmbeddedServer.NAME_SERVER, directory);
    }

    @Test
    void shouldDeliverAgainWhatABeansTransactionRolledBackAndKeepOnlyTheCommittedRow() {
        TxRoundTrip.rolledBackDelivery(HTTP, "tx-app", EmbeddedServer.NAME_SERVER, directory);
    }
}
