package dev.ferry.client;

/** Nanoseconds for measuring time spans, as {@link System#nanoTime()}; a test's ticker moves when told. */
@FunctionalInterface
public interface Ticker {
    Ticker SYSTEM = System::nanoTime;

    long nanos();
}
