package dev.ferry.store;

/**
 * Asynchronous flush: forces the commit log's written bytes once per flush interval (the {@link DutyLoop}'s idle
 * wait), on the flush thread. Appends never wait for it.
 */
final class FlushService implements DutyLoop.Duty {
    private final CommitLog commitLog;

    FlushService(CommitLog commitLog) {
        this.commitLog = commitLog;
    }

    @Override
    public int doWork() {
        commitLog.flush();
        return 0;
    }
}
