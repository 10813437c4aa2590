package dev.ferry.server.broker;

import dev.ferry.store.AppendResult;
import dev.ferry.store.AppendStatus;
import dev.ferry.store.MessageToStore;
import dev.ferry.store.MessageWriter;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A store that keeps what it is asked to append: it stores each message at once, at consecutive offsets, until told
 * to refuse with a status or to hold its answers (as a sync flush does until the force).
 */
final class FakeMessageWriter implements MessageWriter {
    static final InetSocketAddress STORE_HOST = new InetSocketAddress("127.0.0.1", 10911);
    static final int ENTRY_SIZE = 100;

    final List<MessageToStore> appended = new CopyOnWriteArrayList<>();
    /** The answers held back, in append order: the test completes each with the status the append ends with. */
    final List<CompletableFuture<AppendStatus>> held = new CopyOnWriteArrayList<>();
    private volatile AppendStatus refusal;
    private volatile boolean holding;
    private long end;

    /** Refuses every append from now on with {@code status}, writing nothing. */
    void refuseWith(AppendStatus status) {
        this.refusal = status;
    }

    /** Stores every append from now on, but answers only when the test completes {@link #held}. */
    void holdAnswers() {
        this.holding = true;
    }

    @Override
    public synchronized CompletableFuture<AppendResult> appendAsync(MessageToStore message) {
        if (refusal != null) {
            return CompletableFuture.completedFuture(new AppendResult(refusal, -1, 0, -1, 0, null,
                    "refused by the test"));
        }
        appended.add(message);
        AppendResult stored = new AppendResult(AppendStatus.PUT_OK, end, ENTRY_SIZE, appended.size() - 1L,
                message.bornTimestamp(), STORE_HOST, "");
        end += ENTRY_SIZE;
        if (!holding) {
            return CompletableFuture.completedFuture(stored);
        }
        CompletableFuture<AppendStatus> answer = new CompletableFuture<>();
        held.add(answer);
        return answer.thenApply(status -> status == AppendStatus.PUT_OK ? stored : new AppendResult(status,
                stored.physicalOffset(), stored.size(), stored.queueOffset(), stored.storeTimestamp(),
                stored.storeHost(), "held"));
    }

    @Override
    public synchronized long commitLogEndOffset() {
        return end;
    }
}
