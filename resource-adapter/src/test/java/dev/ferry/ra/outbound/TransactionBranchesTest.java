package dev.ferry.ra.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.api.Message;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.client.HalfMessage;
import dev.ferry.client.TransactionState;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.transaction.xa.XAResource;
import org.junit.jupiter.api.Test;

/** The branches' answers to a broker's check-back, with a producer that only records what it was asked. */
class TransactionBranchesTest {
    private final FakeHalfMessages producer = new FakeHalfMessages();
    private final TransactionBranches branches = new TransactionBranches(100);

    /** Stores half messages at growing commit-log offsets and records how each was ended. */
    private static final class FakeHalfMessages implements HalfMessages {
        private final List<HalfMessage> sent = new ArrayList<>();
        private final Map<String, TransactionState> ended = new HashMap<>();

        @Override
        public HalfMessage sendHalf(Message message, String shardingKey) {
            int n = sent.size();
            HalfMessage half = new HalfMessage("broker-a", message.topic(), 0, n, 1_000L * (n + 1), "ID" + n,
                    message.properties());
            sent.add(half);
            return half;
        }

        @Override
        public void endTransaction(HalfMessage half, TransactionState state) {
            ended.put(half.msgId(), state);
        }

        @Override
        public List<HalfMessage> undecidedHalfMessages(String property) {
            return sent.stream().filter(half -> !ended.containsKey(half.msgId())).toList();
        }
    }

    private HalfMessage sendInBranch(BranchId xid) throws Exception {
        TransactionBranches.Branch branch = branches.start(xid, producer, XAResource.TMNOFLAGS);
        branches.send(branch, Message.builder("T").body("b".getBytes(StandardCharsets.UTF_8)).build(), null);
        branches.prepare(xid);
        return producer.sent.get(producer.sent.size() - 1);
    }

    /** The half message as a broker's check-back names it, stored at {@code commitLogOffset}. */
    private static ReceivedMessage asChecked(HalfMessage half, long commitLogOffset) {
        return new ReceivedMessage(half.topic(), new byte[0], half.properties(), half.msgId(), half.brokerName(),
                half.queueId(), half.queueOffset(), commitLogOffset, 0, 0, 0);
    }

    private static BranchId xid(int n) {
        return new BranchId(4711, ("g" + n).getBytes(StandardCharsets.UTF_8),
                ("b" + n).getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void shouldAnswerUnknownForAPreparedBranchUntilTheTransactionManagerDecides() throws Exception {
        HalfMessage half = sendInBranch(xid(1));

        assertThat(branches.check(asChecked(half, half.commitLogOffset()))).isEqualTo(TransactionState.UNKNOWN);
    }

    @Test
    void shouldAnswerCommitForTheCommittedHalfMessageAndRollbackForACopyOfItAtAnotherOffset() throws Exception {
        HalfMessage half = sendInBranch(xid(2));
        branches.commit(xid(2), false, producer);

        assertThat(producer.ended).containsEntry(half.msgId(), TransactionState.COMMIT);
        assertThat(branches.check(asChecked(half, half.commitLogOffset()))).isEqualTo(TransactionState.COMMIT);
        assertThat(branches.check(asChecked(half, half.commitLogOffset() + 500)))
                .as("a broker's check made a second copy: delivering it too would deliver the message twice")
                .isEqualTo(TransactionState.ROLLBACK);
    }

    @Test
    void shouldAnswerRollbackForEveryCopyOfARolledBackHalfMessage() throws Exception {
        HalfMessage half = sendInBranch(xid(3));
        branches.rollback(xid(3), producer);

        assertThat(branches.check(asChecked(half, half.commitLogOffset()))).isEqualTo(TransactionState.ROLLBACK);
        assertThat(branches.check(asChecked(half, half.commitLogOffset() + 500))).isEqualTo(TransactionState.ROLLBACK);
    }

    @Test
    void shouldAnswerUnknownForAMessageThatNamesNoBranchOfThisProcess() throws Exception {
        HalfMessage half = sendInBranch(xid(4));
        branches.commit(xid(4), false, producer);
        Map<String, String> withoutBranch = new HashMap<>(half.properties());
        withoutBranch.remove(BranchId.PROPERTY);

        assertThat(branches.check(new ReceivedMessage("T", new byte[0], withoutBranch, half.msgId(), "broker-a", 0, 0,
                half.commitLogOffset() + 500, 0, 0, 0))).as("not a branch's message")
                .isEqualTo(TransactionState.UNKNOWN);
        assertThat(branches.check(asChecked(new HalfMessage("broker-a", "T", 0, 9, 9_000, "OTHER",
                half.properties()), 9_000))).as("decided by nobody here").isEqualTo(TransactionState.UNKNOWN);
    }
}
