package dev.ferry.server.timer;

/**
 * The slots of the next {@link #span()} milliseconds, each the head of its chain in the {@link TimerLog} and how many
 * entries the chain holds. A fixed ring of arrays: its size depends on the precision alone, never on how many timers
 * wait (a timer beyond the ring waits as a {@link TimerRecord.Kind#ROLL} entry). Written by the timer thread; counts
 * are read by senders for the congestion limit, where a stale value does no harm.
 */
final class SlotRing {
    private final int precisionMs;
    private final int mask;
    private final long[] slotMs;
    private final long[] heads;
    private final int[] counts;

    /**
     * @param slots how many slots, a power of two
     */
    SlotRing(int precisionMs, int slots) {
        if (Integer.bitCount(slots) != 1) {
            throw new IllegalArgumentException("slots must be a power of two: " + slots);
        }
        this.precisionMs = precisionMs;
        this.mask = slots - 1;
        this.slotMs = new long[slots];
        this.heads = new long[slots];
        this.counts = new int[slots];
        java.util.Arrays.fill(slotMs, Long.MIN_VALUE);
    }

    /** How far ahead of the firing slot the ring reaches. */
    long span() {
        return (long) (mask + 1) * precisionMs;
    }

    private int index(long slot) {
        return (int) Math.floorMod(slot / precisionMs, (long) mask + 1);
    }

    /** The position of the slot's newest entry, or -1 when it has none. */
    long head(long slot) {
        int i = index(slot);
        return slotMs[i] == slot ? heads[i] : -1;
    }

    /** How many entries wait in the slot. */
    int count(long slot) {
        int i = index(slot);
        return slotMs[i] == slot ? counts[i] : 0;
    }

    /** Makes the entry at {@code position} the slot's newest; the place held an older, fired slot if another. */
    void link(long slot, long position) {
        int i = index(slot);
        if (slotMs[i] != slot) {
            slotMs[i] = slot;
            counts[i] = 0;
        }
        heads[i] = position;
        counts[i]++;
    }

    /** Restores a slot as a snapshot saw it. */
    void restore(long slot, long head, int count) {
        int i = index(slot);
        slotMs[i] = slot;
        heads[i] = head;
        counts[i] = count;
    }

    /** Forgets a fired slot. */
    void clear(long slot) {
        int i = index(slot);
        if (slotMs[i] == slot) {
            slotMs[i] = Long.MIN_VALUE;
            heads[i] = -1;
            counts[i] = 0;
        }
    }

    interface SlotSink {
        void accept(long slot, long head, int count);
    }

    /** Every slot at or after {@code from} that has entries. */
    void forEachFrom(long from, SlotSink sink) {
        for (int i = 0; i <= mask; i++) {
            if (counts[i] > 0 && slotMs[i] >= from) {
                sink.accept(slotMs[i], heads[i], counts[i]);
            }
        }
    }
}
