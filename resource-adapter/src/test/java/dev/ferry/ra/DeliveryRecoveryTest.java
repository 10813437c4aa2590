package dev.ferry.ra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.charset.StandardCharsets;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.Test;

/** What the server's recovery finds of an activation's transacted deliveries: nothing in doubt. */
class DeliveryRecoveryTest {
    private record TestXid(int getFormatId, byte[] getGlobalTransactionId, byte[] getBranchQualifier) implements Xid {
    }

    private static final Xid XID = new TestXid(1, "tx".getBytes(StandardCharsets.UTF_8), new byte[] {1});

    @Test
    void shouldKnowNoBranchWhenRecovering() throws Exception {
        XAResource recovery = new FerryResourceAdapter().getXAResources(new jakarta.resource.spi.ActivationSpec[1])[0];

        assertThat(recovery.recover(XAResource.TMSTARTRSCAN)).isEmpty();
        XAException unknown = catchThrowableOfType(XAException.class, () -> recovery.commit(XID, false));
        assertThat(unknown.errorCode).isEqualTo(XAException.XAER_NOTA);
        assertThat(unknown).hasMessageStartingWith("FERRY-RA-0225");
        assertThat(catchThrowableOfType(XAException.class, () -> recovery.rollback(XID)).errorCode)
                .isEqualTo(XAException.XAER_NOTA);
    }

    @Test
    void shouldGiveOneResourcePerActivationSpec() {
        assertThat(new FerryResourceAdapter().getXAResources(new jakarta.resource.spi.ActivationSpec[3])).hasSize(3)
                .doesNotContainNull();
        assertThat(new FerryResourceAdapter().getXAResources(null)).isEmpty();
    }
}
