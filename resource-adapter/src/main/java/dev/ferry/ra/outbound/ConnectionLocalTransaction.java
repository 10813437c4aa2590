package dev.ferry.ra.outbound;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.LocalTransaction;
import jakarta.resource.spi.LocalTransactionException;
import java.nio.ByteBuffer;
import java.util.UUID;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;

/**
 * A managed connection's local transaction: between {@link #begin} and {@link #commit} its sends are half messages;
 * commit delivers them all, rollback none. Left undecided by a crash, they are never delivered (the brokers' checks
 * find nobody to commit them and discard them). One transaction at a time per connection.
 */
final class ConnectionLocalTransaction implements LocalTransaction {
    private final FerryManagedConnection connection;
    private final TransactionBranches branches;
    private BranchId current;

    ConnectionLocalTransaction(FerryManagedConnection connection, TransactionBranches branches) {
        this.connection = connection;
        this.branches = branches;
    }

    @Override
    public synchronized void begin() throws ResourceException {
        if (current != null) {
            throw new LocalTransactionException("FERRY-RA-0345 a local transaction is active on this connection");
        }
        UUID random = UUID.randomUUID();
        byte[] id = ByteBuffer.allocate(16).putLong(random.getMostSignificantBits())
                .putLong(random.getLeastSignificantBits()).array();
        BranchId branch = new BranchId(TransactionBranches.LOCAL_FORMAT_ID, id, new byte[0]);
        try {
            connection.associate(branches.start(branch, connection.halfMessages(), XAResource.TMNOFLAGS));
        } catch (XAException e) {
            throw failure("begin", e);
        }
        current = branch;
    }

    @Override
    public synchronized void commit() throws ResourceException {
        BranchId branch = active();
        try {
            branches.commit(branch, true, connection.halfMessages());
        } catch (XAException e) {
            throw failure("commit", e);
        }
    }

    @Override
    public synchronized void rollback() throws ResourceException {
        BranchId branch = active();
        try {
            branches.rollback(branch, connection.halfMessages());
        } catch (XAException e) {
            throw failure("rollback", e);
        }
    }

    private BranchId active() throws LocalTransactionException {
        BranchId branch = current;
        if (branch == null) {
            throw new LocalTransactionException("FERRY-RA-0346 no local transaction is active on this connection");
        }
        connection.dissociate(branch);
        current = null;
        return branch;
    }

    private static LocalTransactionException failure(String what, XAException e) {
        LocalTransactionException failure = new LocalTransactionException("FERRY-RA-0347 local transaction " + what
                + " failed: " + e.getMessage(), Integer.toString(e.errorCode));
        failure.initCause(e);
        return failure;
    }
}
