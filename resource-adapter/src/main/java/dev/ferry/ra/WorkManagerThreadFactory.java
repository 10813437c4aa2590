package dev.ferry.ra;

import io.netty.util.concurrent.FastThreadLocal;
import jakarta.resource.spi.work.HintsContext;
import jakarta.resource.spi.work.Work;
import jakarta.resource.spi.work.WorkContext;
import jakarta.resource.spi.work.WorkContextProvider;
import jakarta.resource.spi.work.WorkException;
import jakarta.resource.spi.work.WorkManager;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link ThreadFactory} fed by the application server's {@link WorkManager}: the engine and the client keep
 * their executors and event loops, but every thread they start begins as a {@link Work} started with
 * {@link WorkManager#startWork}, so the server can refuse it and it starts in the server's context. Two
 * placements ({@link Placement}): the task runs on the server's thread itself, as a long-running work
 * ({@link Placement#WORK}, marked so with a {@link HintsContext} when the server supports hints), or the work
 * starts a dedicated daemon thread for it and ends ({@link Placement#SPAWNED}). The second is the default of
 * the adapter because servers wait for their busy pool threads when they stop: Open Liberty's quiesce waits its
 * full 30 s for an engine's event loops, which only end when the adapter stops, after the quiesce.
 *
 * <p>{@link #newThread} returns a stand-in {@link Thread} that is never started itself: its {@code start()}
 * submits the work, and {@code interrupt()}/{@code isInterrupted()} reach the server thread that runs it
 * (which is how executors stop their workers). What a stand-in cannot forward, because the methods are
 * final, is {@code isAlive()}, {@code join()} and {@code LockSupport.unpark}: code that needs them must use
 * {@code Thread.currentThread()} from inside the task. While it runs, the thread carries the stand-in's name
 * and the adapter's class loader; on a server thread both are restored, and Netty's thread-locals cleared,
 * before the thread goes back to the server.
 *
 * <p>A rejected work makes {@code start()} throw {@link RejectedExecutionException} (FERRY-RA-0101), which
 * fails whatever was starting, such as the adapter. Once the adapter {@link #stopping() stops}, though, a
 * rejected work starts a plain daemon thread instead: a stopping server refuses new work, and closing the
 * engine may need a thread (a Netty loop that never ran starts one to terminate). Thread-safe.
 */
public final class WorkManagerThreadFactory implements ThreadFactory {
    private static final System.Logger LOG = System.getLogger(WorkManagerThreadFactory.class.getName());
    /** How long {@code start()} waits for the server to begin a work before it counts as rejected. */
    static final Duration START_TIMEOUT = Duration.ofSeconds(30);

    /** Where a task runs. */
    public enum Placement {
        /** On the server's thread that runs the work, for as long as the task runs. */
        WORK,
        /** On a daemon thread the work starts; the work itself ends at once. */
        SPAWNED
    }

    private final WorkManager workManager;
    private final Placement placement;
    private final String namePrefix;
    private final boolean hintsSupported;
    private final ClassLoader contextClassLoader;
    private final AtomicInteger count = new AtomicInteger();
    /** Shared by the factories {@link #named} derives, so that one call covers all of an adapter's. */
    private final AtomicBoolean stopping;
    private final Set<WorkThread> running = ConcurrentHashMap.newKeySet();

    /**
     * @param workManager the server's work manager
     * @param placement where tasks run
     * @param namePrefix names the threads {@code prefix-1}, {@code prefix-2}, ...
     * @param hintsSupported whether the server accepts a {@link HintsContext} (long-running, name)
     * @param contextClassLoader the context class loader while a work runs
     */
    public WorkManagerThreadFactory(WorkManager workManager, Placement placement, String namePrefix,
                                    boolean hintsSupported, ClassLoader contextClassLoader) {
        this.workManager = Objects.requireNonNull(workManager, "workManager");
        this.placement = Objects.requireNonNull(placement, "placement");
        this.namePrefix = Objects.requireNonNull(namePrefix, "namePrefix");
        this.hintsSupported = hintsSupported;
        this.contextClassLoader = contextClassLoader;
        this.stopping = new AtomicBoolean();
    }

    private WorkManagerThreadFactory(WorkManagerThreadFactory parent, String namePrefix) {
        this.workManager = parent.workManager;
        this.placement = parent.placement;
        this.namePrefix = Objects.requireNonNull(namePrefix, "namePrefix");
        this.hintsSupported = parent.hintsSupported;
        this.contextClassLoader = parent.contextClassLoader;
        this.stopping = parent.stopping;
    }

    /**
     * The adapter is stopping (this factory and those {@link #named} from it): from now on a thread the
     * WorkManager refuses starts on its own.
     */
    public void stopping() {
        stopping.set(true);
    }

    /** A factory on the same work manager naming its threads {@code prefix-N}. */
    public WorkManagerThreadFactory named(String prefix) {
        return new WorkManagerThreadFactory(this, prefix);
    }

    @Override
    public Thread newThread(Runnable task) {
        return new WorkThread(namePrefix + "-" + count.incrementAndGet(), Objects.requireNonNull(task, "task"));
    }

    /** How many of this factory's works are running now. */
    public int runningWorks() {
        return running.size();
    }

    /**
     * Interrupts every running work of this factory: for loops that outlive the close of their owner because
     * they park and expect an {@code unpark} of their (stand-in) thread, which cannot reach the server thread.
     */
    public void interruptRunning() {
        running.forEach(Thread::interrupt);
    }

    /** The names of the threads whose works are running now. */
    public List<String> runningThreadNames() {
        return running.stream().map(Thread::getName).sorted().toList();
    }

    /** The stand-in: starting it submits a work; interrupting it interrupts the server thread running it. */
    private final class WorkThread extends Thread {
        private final Runnable task;
        private final Object lock = new Object();
        private boolean submitted;
        /** The server thread running the task; {@code null} before it starts and after it ends. */
        private Thread carrier;
        private boolean interruptPending;
        /** Whether a work or the fallback has taken the task: it runs once, whoever comes first. */
        private boolean claimed;

        WorkThread(String name, Runnable task) {
            super(name);
            this.task = task;
            setDaemon(true);
        }

        @Override
        public void start() {
            synchronized (lock) {
                if (submitted) {
                    throw new IllegalThreadStateException(getName() + " was started already");
                }
                submitted = true;
            }
            running.add(this); // counted from now on, so that a thread still starting is waited for too
            try {
                workManager.startWork(new TaskWork(this), START_TIMEOUT.toMillis(), null, null);
            } catch (WorkException | RuntimeException e) {
                if (stopping.get()) {
                    if (claim()) {
                        LOG.log(Level.DEBUG, () -> "FERRY-RA-0103 the stopping server refused thread '" + getName()
                                + "'; it runs on a thread of its own: " + e);
                        startDedicated(this);
                    }
                    return; // unclaimed: a work of the server took it after all
                }
                running.remove(this);
                String message = "FERRY-RA-0101 the WorkManager rejected thread '" + getName() + "': " + e;
                LOG.log(Level.ERROR, message, e);
                throw new RejectedExecutionException(message, e);
            }
        }

        /** Takes the task for the caller; false when someone already has. */
        boolean claim() {
            synchronized (lock) {
                if (claimed) {
                    return false;
                }
                claimed = true;
                return true;
            }
        }

        @Override
        public void interrupt() {
            synchronized (lock) {
                if (carrier != null) {
                    carrier.interrupt();
                } else {
                    interruptPending = true;
                }
            }
        }

        @Override
        public boolean isInterrupted() {
            synchronized (lock) {
                return carrier != null ? carrier.isInterrupted() : interruptPending;
            }
        }

        void run(Thread current) {
            String originalName = current.getName();
            ClassLoader originalLoader = current.getContextClassLoader();
            synchronized (lock) {
                carrier = current;
                if (interruptPending) {
                    current.interrupt();
                }
            }
            current.setName(getName());
            current.setContextClassLoader(contextClassLoader);
            try {
                task.run();
            } catch (Throwable e) {
                LOG.log(Level.ERROR, "FERRY-RA-0102 thread '" + getName() + "' ended with an exception", e);
            } finally {
                synchronized (lock) {
                    carrier = null;
                }
                running.remove(this);
                FastThreadLocal.removeAll();
                Thread.interrupted(); // the server's thread goes back to its pool uninterrupted
                current.setContextClassLoader(originalLoader);
                current.setName(originalName);
            }
        }
    }

    private void startDedicated(WorkThread thread) {
        Thread dedicated = new Thread(() -> thread.run(Thread.currentThread()), thread.getName());
        dedicated.setDaemon(true);
        dedicated.setContextClassLoader(contextClassLoader);
        dedicated.start();
    }

    /** The work the server runs for one stand-in thread. */
    private final class TaskWork implements Work, WorkContextProvider {
        private static final long serialVersionUID = 1L;
        private final transient WorkThread thread;

        TaskWork(WorkThread thread) {
            this.thread = thread;
        }

        @Override
        public void run() {
            if (!thread.claim()) {
                return; // a refused start already ran it on a thread of its own
            }
            if (placement == Placement.WORK) {
                thread.run(Thread.currentThread());
            } else {
                startDedicated(thread);
            }
        }

        /** The server wants the thread back (it is shutting down): interrupt the task. */
        @Override
        public void release() {
            thread.interrupt();
        }

        @Override
        public List<WorkContext> getWorkContexts() {
            if (!hintsSupported) {
                return List.of();
            }
            HintsContext hints = new HintsContext();
            hints.setName(thread.getName());
            hints.setDescription("Ferry resource adapter thread");
            hints.setHint(HintsContext.LONGRUNNING_HINT, placement == Placement.WORK);
            return List.of(hints);
        }

        @Override
        public String toString() {
            return "Work[" + thread.getName() + "]";
        }
    }
}
