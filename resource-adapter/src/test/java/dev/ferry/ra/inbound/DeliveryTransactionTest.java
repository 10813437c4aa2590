package dev.ferry.ra.inbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.charset.StandardCharsets;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.Test;

/** The votes and outcomes of a delivery's transaction resource, as a transaction manager drives it. */
class DeliveryTransactionTest {
    private record TestXid(int getFormatId, byte[] getGlobalTransactionId, byte[] getBranchQualifier) implements Xid {
    }

    private static final Xid XID = new TestXid(1, "tx".getBytes(StandardCharsets.UTF_8), new byte[] {1});

    @Test
    void shouldVoteYesAndLearnTheCommit() throws Exception {
        DeliveryTransaction transaction = new DeliveryTransaction();
        transaction.start(XID, XAResource.TMNOFLAGS);
        transaction.end(XID, XAResource.TMSUCCESS);

        assertThat(transaction.prepare(XID)).as("not read-only: the outcome must come back").isEqualTo(
                XAResource.XA_OK);
        transaction.commit(XID, false);

        assertThat(transaction.outcome()).isEqualTo(DeliveryTransaction.Outcome.COMMITTED);
    }

    @Test
    void shouldCountItsNoVoteAsTheRollbackTheManagerWillNotReport() {
        DeliveryTransaction transaction = new DeliveryTransaction();
        transaction.rollbackOnly("the stopping consumer interrupted the bean");

        XAException vote = catchThrowableOfType(XAException.class, () -> transaction.prepare(XID));

        assertThat(vote.errorCode).isEqualTo(XAException.XA_RBROLLBACK);
        assertThat(vote).hasMessage("FERRY-RA-0218 the delivery rolls back: the stopping consumer interrupted the"
                + " bean");
        assertThat(transaction.outcome()).isEqualTo(DeliveryTransaction.Outcome.ROLLED_BACK);
    }

    @Test
    void shouldRefuseAOnePhaseCommitOfADeliveryThatMustRollBack() {
        DeliveryTransaction transaction = new DeliveryTransaction();
        transaction.rollbackOnly("its offset could not be recorded");

        XAException refused = catchThrowableOfType(XAException.class, () -> transaction.commit(XID, true));

        assertThat(refused.errorCode).isEqualTo(XAException.XA_RBROLLBACK);
        assertThat(transaction.outcome()).isEqualTo(DeliveryTransaction.Outcome.ROLLED_BACK);
    }
}
