package dev.ferry.format;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * What a class logs through {@code System.Logger} (the platform's logging, by the class's name) while a test runs:
 * every record its logger publishes at INFO and above, until closed. Shared with other modules' tests through this
 * module's test jar.
 */
public final class CapturedLog implements AutoCloseable {
    private final Logger logger;
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private CapturedLog(Logger logger) {
        this.logger = logger;
        logger.addHandler(handler);
    }

    /** Starts capturing what {@code source} logs. */
    public static CapturedLog of(Class<?> source) {
        return new CapturedLog(Logger.getLogger(source.getName()));
    }

    /** The records so far at {@code level} or above. */
    public List<LogRecord> atLeast(Level level) {
        return records.stream().filter(r -> r.getLevel().intValue() >= level.intValue()).toList();
    }

    /** A record's message with its parameters filled in. */
    public static String text(LogRecord record) {
        Object[] parameters = record.getParameters();
        return parameters == null || parameters.length == 0 ? record.getMessage()
                : java.text.MessageFormat.format(record.getMessage(), parameters);
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
    }
}
