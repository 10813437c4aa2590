package dev.ferry.ra.outbound;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * A managed connection's {@link XAResource}: {@link #start} makes the connection's sends half messages of the branch
 * until {@link #end}; the two phases and recovery are its factory's {@link TransactionBranches}. Two Ferry resources
 * are the same resource manager when they belong to the same connection factory. Branch timeouts are the
 * transaction manager's; a broker keeps an undecided half message for its transaction-check window.
 */
final class ConnectionXaResource implements XAResource {
    private final FerryManagedConnection connection;
    private final TransactionBranches branches;

    ConnectionXaResource(FerryManagedConnection connection, TransactionBranches branches) {
        this.connection = connection;
        this.branches = branches;
    }

    @Override
    public void start(Xid xid, int flags) throws XAException {
        connection.associate(branches.start(xid, connection.halfMessages(), flags));
    }

    @Override
    public void end(Xid xid, int flags) throws XAException {
        connection.dissociate(BranchId.of(xid));
        if (flags == TMFAIL) {
            branches.failed(xid);
        }
    }

    @Override
    public int prepare(Xid xid) throws XAException {
        return branches.prepare(xid);
    }

    @Override
    public void commit(Xid xid, boolean onePhase) throws XAException {
        branches.commit(xid, onePhase, connection.halfMessages());
    }

    @Override
    public void rollback(Xid xid) throws XAException {
        branches.rollback(xid, connection.halfMessages());
    }

    @Override
    public Xid[] recover(int flag) throws XAException {
        return branches.recover(flag, connection.halfMessages());
    }

    @Override
    public void forget(Xid xid) {
        branches.forget(xid);
    }

    @Override
    public boolean isSameRM(XAResource other) {
        return other instanceof ConnectionXaResource ferry && ferry.branches == branches;
    }

    @Override
    public int getTransactionTimeout() {
        return 0;
    }

    @Override
    public boolean setTransactionTimeout(int seconds) {
        return false;
    }

    @Override
    public String toString() {
        return "FerryXAResource[" + connection + "]";
    }
}
