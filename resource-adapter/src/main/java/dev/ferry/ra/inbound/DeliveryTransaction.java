package dev.ferry.ra.inbound;

import dev.ferry.ra.DeliveryXaResource;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * The {@link XAResource} a transacted delivery hands to {@code createEndpoint}: the container enlists it in the
 * transaction it runs the bean in, and tells it the outcome. The message is acknowledged (its offset may advance) only
 * when that transaction commits; a rollback, whether the bean threw or called {@code setRollbackOnly}, delivers it
 * again. When the adapter's own part of the delivery fails (recording the offset in the application's database), it
 * votes the transaction down. It holds nothing at a broker, so it has nothing to prepare or recover: a transaction
 * the server lost between prepare and commit leaves the message unacknowledged, and it is delivered again (the
 * server's recovery gets the core's {@code DeliveryRecovery}). One per delivery; thread-safe.
 */
public final class DeliveryTransaction extends DeliveryXaResource {
    /** What the transaction manager said last. */
    enum Outcome { NONE, COMMITTED, ROLLED_BACK }

    private volatile Outcome outcome = Outcome.NONE;
    /** Why this resource votes the transaction down; {@code null} while it votes yes. */
    private volatile String rollbackReason;

    /**
     * The adapter's own part of the delivery failed, or the delivery was stopped: this resource votes to roll the
     * transaction back.
     *
     * @param reason what the vote's exception says
     */
    void rollbackOnly(String reason) {
        rollbackReason = reason;
    }

    Outcome outcome() {
        return outcome;
    }

    boolean committed() {
        return outcome == Outcome.COMMITTED;
    }

    /**
     * Votes yes (not read-only: the outcome must come back to it), unless the delivery is to roll back; a no vote is
     * the outcome, since the transaction manager does not tell a resource that voted no how the transaction ended.
     */
    @Override
    public int prepare(Xid xid) throws XAException {
        String reason = rollbackReason;
        if (reason != null) {
            outcome = Outcome.ROLLED_BACK;
            throw rolledBack(reason);
        }
        return XA_OK;
    }

    @Override
    public void commit(Xid xid, boolean onePhase) throws XAException {
        String reason = rollbackReason;
        if (reason != null && onePhase) {
            outcome = Outcome.ROLLED_BACK;
            throw rolledBack(reason);
        }
        outcome = Outcome.COMMITTED;
    }

    private static XAException rolledBack(String reason) {
        XAException e = new XAException("FERRY-RA-0218 the delivery rolls back: " + reason);
        e.errorCode = XAException.XA_RBROLLBACK;
        return e;
    }

    @Override
    public void rollback(Xid xid) {
        outcome = Outcome.ROLLED_BACK;
    }

    @Override
    public String toString() {
        return "FerryDeliveryTransaction[" + outcome + "]";
    }
}
