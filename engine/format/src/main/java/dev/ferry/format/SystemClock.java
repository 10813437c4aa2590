package dev.ferry.format;

/** The system's clocks: the only class that reads them directly (ArchitectureTest of every module). */
final class SystemClock implements Clock {
    static final SystemClock INSTANCE = new SystemClock();

    private SystemClock() {
    }

    @Override
    public long millis() {
        return System.currentTimeMillis();
    }

    @Override
    public long nanos() {
        return System.nanoTime();
    }

    @Override
    public String toString() {
        return "SystemClock";
    }
}
