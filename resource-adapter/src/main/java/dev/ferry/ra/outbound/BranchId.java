package dev.ferry.ra.outbound;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;
import javax.transaction.xa.Xid;

/**
 * A transaction branch's identity, copied out of the transaction manager's {@link Xid} (whose instances may be
 * reused), comparable by value, and written into every half message the branch sends
 * ({@link #PROPERTY}) so that recovery after a crash finds the branch again from the brokers alone.
 *
 * @param formatId the format id
 * @param globalTransactionId the global transaction id, at most 64 bytes
 * @param branchQualifier the branch qualifier, at most 64 bytes
 */
record BranchId(int formatId, byte[] globalTransactionId, byte[] branchQualifier) implements Xid {
    /** The half-message property that names the branch. */
    static final String PROPERTY = "FERRY_XA_BRANCH";
    private static final HexFormat HEX = HexFormat.of();

    BranchId {
        globalTransactionId = globalTransactionId.clone();
        branchQualifier = branchQualifier.clone();
    }

    static BranchId of(Xid xid) {
        return xid instanceof BranchId id ? id
                : new BranchId(xid.getFormatId(), xid.getGlobalTransactionId(), xid.getBranchQualifier());
    }

    /** {@code formatId:gtrid-hex:bqual-hex}. */
    String toProperty() {
        return formatId + ":" + HEX.formatHex(globalTransactionId) + ":" + HEX.formatHex(branchQualifier);
    }

    /** The branch a half message's property names; empty when the text is not one (not written by Ferry). */
    static Optional<BranchId> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        String[] parts = text.split(":", -1);
        if (parts.length != 3 || parts[1].length() > 128 || parts[2].length() > 128) {
            return Optional.empty();
        }
        try {
            return Optional.of(new BranchId(Integer.parseInt(parts[0]), HEX.parseHex(parts[1]),
                    HEX.parseHex(parts[2])));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    @Override
    public int getFormatId() {
        return formatId;
    }

    @Override
    public byte[] getGlobalTransactionId() {
        return globalTransactionId.clone();
    }

    @Override
    public byte[] getBranchQualifier() {
        return branchQualifier.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BranchId other && formatId == other.formatId
                && Arrays.equals(globalTransactionId, other.globalTransactionId)
                && Arrays.equals(branchQualifier, other.branchQualifier);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * formatId + Arrays.hashCode(globalTransactionId)) + Arrays.hashCode(branchQualifier);
    }

    @Override
    public String toString() {
        return "Xid[" + toProperty() + "]";
    }
}
