package dev.ferry.ra;

import javax.transaction.xa.XAException;
import javax.transaction.xa.Xid;

/**
 * What the server's recovery gets for an activation's transacted deliveries: a delivery's resource holds nothing
 * durable (a message whose transaction the server lost is simply delivered again), so there is no branch in doubt and
 * none this resource could be asked to finish. It lives in the core, beside {@link FerryResourceAdapter#getXAResources},
 * so that the core needs nothing of the inbound package. Stateless; thread-safe.
 */
final class DeliveryRecovery extends DeliveryXaResource {

    /** A recovery resource knows no branch: the one asked about ended with the process that delivered it. */
    private static XAException unknownBranch() {
        XAException e = new XAException("FERRY-RA-0225 no delivery branch to finish: its message is delivered again");
        e.errorCode = XAException.XAER_NOTA;
        return e;
    }

    @Override
    public int prepare(Xid xid) throws XAException {
        throw unknownBranch();
    }

    @Override
    public void commit(Xid xid, boolean onePhase) throws XAException {
        throw unknownBranch();
    }

    @Override
    public void rollback(Xid xid) throws XAException {
        throw unknownBranch();
    }

    @Override
    public String toString() {
        return "FerryDeliveryRecovery";
    }
}
