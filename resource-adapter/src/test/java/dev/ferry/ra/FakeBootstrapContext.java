package dev.ferry.ra;

import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.XATerminator;
import jakarta.resource.spi.work.HintsContext;
import jakarta.resource.spi.work.WorkContext;
import jakarta.resource.spi.work.WorkManager;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.Timer;

/** A BootstrapContext around a {@link FakeWorkManager} that supports hints. */
public final class FakeBootstrapContext implements BootstrapContext {
    private final FakeWorkManager workManager = new FakeWorkManager();

    public FakeWorkManager fakeWorkManager() {
        return workManager;
    }

    @Override
    public WorkManager getWorkManager() {
        return workManager;
    }

    @Override
    public XATerminator getXATerminator() {
        return null;
    }

    @Override
    public Timer createTimer() {
        return new Timer(true);
    }

    @Override
    public boolean isContextSupported(Class<? extends WorkContext> type) {
        return type == HintsContext.class;
    }

    @Override
    public TransactionSynchronizationRegistry getTransactionSynchronizationRegistry() {
        return null;
    }
}
