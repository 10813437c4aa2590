package dev.ferry.ra.outbound;

import dev.ferry.api.FerryException;
import dev.ferry.api.InvalidMessageException;
import dev.ferry.api.Message;
import dev.ferry.api.MessageQueue;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.api.SendResult;
import dev.ferry.api.SendStatus;
import dev.ferry.client.HalfMessage;
import dev.ferry.client.TransactionState;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * The resource manager behind one connection factory's XA and local transactions. A send inside a branch is stored at
 * once as a half message (durable before prepare answers, not delivered) that names its branch ({@link BranchId}).
 * Commit ends each half message of the branch with COMMIT and waits for the broker's confirmation, rollback with
 * ROLLBACK. Branches live here while this process knows them; after a crash, {@link #recover} reads the brokers' half
 * messages for the branches that were sent and not decided, and commit or rollback of such a branch ends what the
 * brokers hold for it. A broker's check-back about a half message is answered UNKNOWN until the transaction manager
 * has decided: the broker waits, and the decision is the transaction manager's alone. Thread-safe.
 */
final class TransactionBranches {
    private static final System.Logger LOG = System.getLogger(TransactionBranches.class.getName());
    /** Format id of the branches of local transactions (not an XA transaction manager's). */
    static final int LOCAL_FORMAT_ID = 0x46525459;
    private static final int REMEMBERED_DECISIONS = 100_000;

    /** What a branch is doing. */
    enum State { ACTIVE, PREPARED }

    /** One branch this process knows: the half messages it sent, in order. */
    static final class Branch {
        private final BranchId id;
        private final HalfMessages halfMessages;
        private final List<HalfMessage> halves = Collections.synchronizedList(new ArrayList<>());
        private volatile State state = State.ACTIVE;
        private volatile boolean rollbackOnly;

        private Branch(BranchId id, HalfMessages halfMessages) {
            this.id = id;
            this.halfMessages = halfMessages;
        }

        BranchId id() {
            return id;
        }

        void rollbackOnly() {
            rollbackOnly = true;
        }
    }

    /** A decision this process made about one half message. */
    private record Decision(TransactionState state, String brokerName, long commitLogOffset) {
    }

    private final int maxMessagesPerBranch;
    private final ConcurrentMap<BranchId, Branch> branches = new ConcurrentHashMap<>();
    private final Map<String, Decision> decisions = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Decision> eldest) {
            return size() > REMEMBERED_DECISIONS;
        }
    };

    TransactionBranches(int maxMessagesPerBranch) {
        this.maxMessagesPerBranch = maxMessagesPerBranch;
    }

    /** Starts, joins or resumes the branch {@code xid} ({@link XAResource#start} flags). */
    Branch start(Xid xid, HalfMessages halfMessages, int flags) throws XAException {
        BranchId id = BranchId.of(xid);
        if (flags == XAResource.TMJOIN || flags == XAResource.TMRESUME) {
            Branch branch = branches.get(id);
            if (branch == null) {
                throw error(XAException.XAER_NOTA, "no branch " + id + " to join or resume");
            }
            return branch;
        }
        if (flags != XAResource.TMNOFLAGS) {
            throw error(XAException.XAER_INVAL, "start flags " + flags + " are none of TMNOFLAGS, TMJOIN, TMRESUME");
        }
        Branch created = new Branch(id, halfMessages);
        if (branches.putIfAbsent(id, created) != null) {
            throw error(XAException.XAER_DUPID, "branch " + id + " exists already");
        }
        return created;
    }

    /** Sends {@code message} as a half message of {@code branch}; a failure marks the branch rollback-only. */
    SendResult send(Branch branch, Message message, String shardingKey) {
        if (branch.state != State.ACTIVE) {
            throw new FerryException("FERRY-RA-0340 transaction branch " + branch.id + " is prepared: it sends nothing"
                    + " more");
        }
        if (branch.halves.size() >= maxMessagesPerBranch) {
            branch.rollbackOnly();
            throw new FerryException("FERRY-RA-0341 a transaction sends at most " + maxMessagesPerBranch
                    + " messages through one connection factory; the transaction will roll back");
        }
        if (message.delayLevel() > 0) {
            throw new InvalidMessageException("FERRY-RA-0344 a message sent in a transaction cannot be delayed (delay"
                    + " level " + message.delayLevel() + " to '" + message.topic() + "')");
        }
        Message marked = message.toBuilder().property(BranchId.PROPERTY, branch.id.toProperty()).build();
        HalfMessage half;
        try {
            half = branch.halfMessages.sendHalf(marked, shardingKey);
        } catch (RuntimeException e) {
            branch.rollbackOnly();
            throw e;
        }
        branch.halves.add(half);
        // stored, not yet in its queue: no queue offset until the transaction commits
        return new SendResult(SendStatus.SEND_OK, half.msgId(), null, new MessageQueue(half.topic(),
                half.brokerName(), half.queueId()), -1);
    }

    /** Phase one: the branch's half messages are durable already; nothing sent means nothing to commit. */
    int prepare(Xid xid) throws XAException {
        Branch branch = known(xid);
        if (branch.state != State.ACTIVE) {
            throw error(XAException.XAER_PROTO, "branch " + branch.id + " is prepared already");
        }
        if (branch.rollbackOnly) {
            end(branch, TransactionState.ROLLBACK);
            throw error(XAException.XA_RBROLLBACK, "a send of branch " + branch.id + " failed; rolled back");
        }
        if (branch.halves.isEmpty()) {
            branches.remove(branch.id);
            return XAResource.XA_RDONLY;
        }
        branch.state = State.PREPARED;
        return XAResource.XA_OK;
    }

    /** Delivers the branch's messages: the ones this process sent, or after a crash those the brokers hold. */
    void commit(Xid xid, boolean onePhase, HalfMessages halfMessages) throws XAException {
        BranchId id = BranchId.of(xid);
        Branch branch = branches.get(id);
        if (branch != null) {
            if (onePhase != (branch.state == State.ACTIVE)) {
                throw error(XAException.XAER_PROTO, (onePhase ? "one-phase commit of prepared branch "
                        : "commit of unprepared branch ") + id);
            }
            if (branch.rollbackOnly) {
                end(branch, TransactionState.ROLLBACK);
                throw error(XAException.XA_RBROLLBACK, "a send of branch " + id + " failed; rolled back");
            }
            end(branch, TransactionState.COMMIT);
            return;
        }
        end(recovered(id, halfMessages), TransactionState.COMMIT);
    }

    /** Discards the branch's messages: the ones this process sent, or after a crash those the brokers hold. */
    void rollback(Xid xid, HalfMessages halfMessages) throws XAException {
        BranchId id = BranchId.of(xid);
        Branch branch = branches.get(id);
        end(branch != null ? branch : recovered(id, halfMessages), TransactionState.ROLLBACK);
    }

    /** Marks a branch rollback-only (its association ended with TMFAIL). */
    void failed(Xid xid) {
        Branch branch = branches.get(BranchId.of(xid));
        if (branch != null) {
            branch.rollbackOnly();
        }
    }

    /**
     * The branches whose half messages the brokers hold undecided, less those active in this process (not prepared
     * yet): a transaction manager's recovery asks on {@link XAResource#TMSTARTRSCAN}, and gets one list.
     */
    Xid[] recover(int flags, HalfMessages halfMessages) throws XAException {
        if ((flags & XAResource.TMSTARTRSCAN) == 0) {
            return new Xid[0];
        }
        Set<BranchId> found = new LinkedHashSet<>();
        try {
            for (HalfMessage half : halfMessages.undecidedHalfMessages(BranchId.PROPERTY)) {
                BranchId.parse(half.property(BranchId.PROPERTY).orElse(null)).ifPresent(found::add);
            }
        } catch (RuntimeException e) {
            throw error(XAException.XAER_RMFAIL, "cannot read the brokers' half messages: " + e.getMessage(), e);
        }
        found.removeIf(id -> {
            Branch live = branches.get(id);
            return live != null && live.state == State.ACTIVE;
        });
        found.removeIf(id -> id.formatId() == LOCAL_FORMAT_ID);
        return found.toArray(new Xid[0]);
    }

    void forget(Xid xid) {
        branches.remove(BranchId.of(xid));
    }

    /**
     * A broker's check-back about a half message: what this process decided, else UNKNOWN (the transaction manager
     * has not decided, or decides in recovery). A second copy of a committed message (an Apache broker's check makes
     * one) is rolled back, so that the message is delivered once.
     */
    TransactionState check(ReceivedMessage half) {
        Decision decision;
        synchronized (decisions) {
            decision = decisions.get(half.msgId());
        }
        if (decision == null || half.property(BranchId.PROPERTY).isEmpty()) {
            return TransactionState.UNKNOWN;
        }
        if (decision.state() == TransactionState.COMMIT && decision.commitLogOffset() != half.commitLogOffset()) {
            return TransactionState.ROLLBACK;
        }
        return decision.state();
    }

    /** The branches this process holds now. */
    int size() {
        return branches.size();
    }

    private Branch known(Xid xid) throws XAException {
        Branch branch = branches.get(BranchId.of(xid));
        if (branch == null) {
            throw error(XAException.XAER_NOTA, "no branch " + BranchId.of(xid));
        }
        return branch;
    }

    /** A branch this process lost (a crash): rebuilt from the brokers' undecided half messages that name it. */
    private Branch recovered(BranchId id, HalfMessages halfMessages) throws XAException {
        List<HalfMessage> halves;
        try {
            String property = id.toProperty();
            halves = halfMessages.undecidedHalfMessages(BranchId.PROPERTY).stream()
                    .filter(half -> half.property(BranchId.PROPERTY).filter(property::equals).isPresent())
                    .toList();
        } catch (RuntimeException e) {
            throw error(XAException.XAER_RMFAIL, "cannot read the brokers' half messages of " + id + ": "
                    + e.getMessage(), e);
        }
        if (halves.isEmpty()) {
            throw error(XAException.XAER_NOTA, "no undecided message of branch " + id);
        }
        Branch branch = new Branch(id, halfMessages);
        branch.halves.addAll(halves);
        branch.state = State.PREPARED;
        return branch;
    }

    /**
     * Ends every half message of the branch in send order; forgets the branch once all are ended. A failure leaves it
     * (with the messages not ended yet) for the transaction manager to try again.
     */
    private void end(Branch branch, TransactionState state) throws XAException {
        branches.putIfAbsent(branch.id, branch);
        synchronized (branch.halves) {
            while (!branch.halves.isEmpty()) {
                HalfMessage half = branch.halves.get(0);
                try {
                    branch.halfMessages.endTransaction(half, state);
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "FERRY-RA-0342 could not " + (state == TransactionState.COMMIT ? "commit"
                            : "roll back") + " message " + half.msgId() + " of " + branch.id + ": " + e.getMessage()
                            + "; the transaction manager will try again");
                    throw error(XAException.XAER_RMFAIL, "ending " + half.msgId() + " of " + branch.id + " failed: "
                            + e.getMessage(), e);
                }
                synchronized (decisions) {
                    decisions.put(half.msgId(), new Decision(state, half.brokerName(), half.commitLogOffset()));
                }
                branch.halves.remove(0);
            }
        }
        branches.remove(branch.id, branch);
    }

    private static XAException error(int code, String message) {
        return error(code, message, null);
    }

    private static XAException error(int code, String message, Throwable cause) {
        XAException e = new XAException("FERRY-RA-0343 " + message);
        e.errorCode = code;
        if (cause != null) {
            e.initCause(cause);
        }
        return e;
    }

    @Override
    public String toString() {
        return "TransactionBranches[" + branches.size() + " branches]";
    }
}
