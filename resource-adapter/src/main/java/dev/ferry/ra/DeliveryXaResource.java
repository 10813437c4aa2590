package dev.ferry.ra;

import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * What the XA resources of inbound deliveries share: each is a resource manager of its own (so that each delivery is
 * told its own outcome), holds nothing per branch and nothing durable to recover (the outcome comes with commit or
 * rollback), takes no heuristic outcome and has no timeout of its own.
 */
public abstract class DeliveryXaResource implements XAResource {

    @Override
    public final void start(Xid xid, int flags) {
        // nothing held per branch
    }

    @Override
    public final void end(Xid xid, int flags) {
        // the outcome comes with commit or rollback
    }

    @Override
    public final Xid[] recover(int flag) {
        return new Xid[0];
    }

    @Override
    public final void forget(Xid xid) {
        // heuristic outcomes are never taken
    }

    @Override
    public final boolean isSameRM(XAResource other) {
        return other == this;
    }

    @Override
    public final int getTransactionTimeout() {
        return 0;
    }

    @Override
    public final boolean setTransactionTimeout(int seconds) {
        return false;
    }
}
