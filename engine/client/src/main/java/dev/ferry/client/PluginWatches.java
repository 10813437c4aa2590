package dev.ferry.client;

import dev.ferry.spi.PluginWatch;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Watches the plugins one consumer uses. When one goes away (its OSGi bundle stopped or uninstalled), it says so
 * once, naming the plugin and the consumer group, and stops the consumer on the client's scheduler: a consumer
 * must not go on with code that is no longer there, nor keep that code's class loader alive.
 */
final class PluginWatches implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(PluginWatches.class.getName());

    private final String group;
    private final Later later;
    private final Runnable stop;
    private final List<PluginWatch> watches = new CopyOnWriteArrayList<>();
    private final AtomicBoolean told = new AtomicBoolean();

    PluginWatches(String group, Later later, Runnable stop) {
        this.group = group;
        this.later = later;
        this.stop = stop;
    }

    /** Watches {@code plugin}, described as {@code what} (such as {@code allocation strategy sticky}). */
    void watch(String what, Object plugin) {
        watches.add(PluginWatch.of(plugin, from -> withdrawn(what, from)));
    }

    private void withdrawn(String what, String from) {
        if (told.compareAndSet(false, true)) {
            LOG.log(Level.WARNING, "the " + what + " of consumer group " + group + " went away with its " + from
                    + ": the consumer stops");
            later.after(Duration.ZERO, stop);
        }
    }

    @Override
    public void close() {
        watches.forEach(PluginWatch::close);
        watches.clear();
    }
}
