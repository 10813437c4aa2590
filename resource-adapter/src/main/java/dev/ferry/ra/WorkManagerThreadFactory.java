package dev.ferry.ra;

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
import java.util.concurrent.atomic.AtomicReference;

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
 * <p>With {@link Placement#SPAWNED}, {@link #newThread} runs a short work that makes the dedicated thread, so the
 * thread begins in the server's context and the server can refuse it, and hands the real thread back: the caller
 * starts, joins and unparks it as any other. With {@link Placement#WORK} it returns a stand-in {@link Thread} that
 * is never started itself: its {@code start()} submits the work, and {@code interrupt()}/{@code isInterrupted()}
 * reach the server thread that runs it (which is how executors stop their workers). What a stand-in cannot forward,
 * because the methods are final, is {@code isAlive()}, {@code join()} and {@code LockSupport.unpark}: Ferry's
 * engine and client never rely on them (their loops wake the thread they run on), and the default placement has
 * none of these limits. While a task runs on a server thread, it carries the stand-in's name and the adapter's class
 * loader; both are restored before the thread goes back to the server (the engine and the client clear their own
 * thread-locals when their tasks end).
 *
 * <p>A rejected work makes {@code newThread} (spawned) or {@code start()} (work) throw
 * {@link RejectedExecutionException} (FERRY-RA-0101), which fails whatever was starting, such as the adapter. Once the adapter {@link #stopping() stops}, though, a
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
    /** Spawned threads and the stand-ins of works, from their start to their end. */
    private final Set<Thread> running = ConcurrentHashMap.newKeySet();

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
        String name = namePrefix + "-" + count.incrementAndGet();
        Objects.requireNonNull(task, "task");
        return placement == Placement.SPAWNED ? spawn(name, task) : new WorkThread(name, task);
    }

    /**
     * The real thread of a spawned task, made inside a short work of the server's. Once the adapter stops, a server
     * that refuses the work does not stop the thread from being made.
     */
    private Thread spawn(String name, Runnable task) {
        AtomicReference<Thread> made = new AtomicReference<>();
        try {
            workManager.doWork(new SpawnWork(name, () -> made.set(dedicated(name, task))), START_TIMEOUT.toMillis(),
                    null, null);
        } catch (WorkException | RuntimeException e) {
            if (!stopping.get()) {
                String message = "FERRY-RA-0101 the WorkManager rejected thread '" + name + "': " + e;
                LOG.log(Level.ERROR, message, e);
                throw new RejectedExecutionException(message, e);
            }
            LOG.log(Level.DEBUG, () -> "FERRY-RA-0103 the stopping server refused thread '" + name
                    + "'; it is made on its own: " + e);
        }
        Thread thread = made.get();
        return thread != null ? thread : dedicated(name, task);
    }

    /** A daemon thread with the adapter's class loader, counted as running while its task runs. */
    private Thread dedicated(String name, Runnable task) {
        Thread thread = new Thread(() -> {
            Thread current = Thread.currentThread();
            running.add(current);
            try {
                task.run();
            } catch (Throwable e) {
                LOG.log(Level.ERROR, "FERRY-RA-0102 thread '" + name + "' ended with an exception", e);
            } finally {
                running.remove(current);
            }
        }, name);
        thread.setDaemon(true);
        thread.setContextClassLoader(contextClassLoader);
        return thread;
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

    /** The short work that makes a spawned thread in the server's context. */
    private final class SpawnWork implements Work, WorkContextProvider {
        private static final long serialVersionUID = 1L;
        private final String name;
        private final transient Runnable make;

        SpawnWork(String name, Runnable make) {
            this.name = name;
            this.make = make;
        }

        @Override
        public void run() {
            make.run();
        }

        @Override
        public void release() {
            // nothing runs long enough to be released
        }

        @Override
        public List<WorkContext> getWorkContexts() {
            if (!hintsSupported) {
                return List.of();
            }
            HintsContext hints = new HintsContext();
            hints.setName(name);
            hints.setDescription("Ferry resource adapter thread");
            hints.setHint(HintsContext.LONGRUNNING_HINT, false);
            return List.of(hints);
        }

        @Override
        public String toString() {
            return "Work[" + name + "]";
        }
    }

    /** The work the server runs for one stand-in thread: the whole task, on the server's thread. */
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
            thread.run(Thread.currentThread());
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
            hints.setHint(HintsContext.LONGRUNNING_HINT, true);
            return List.of(hints);
        }

        @Override
        public String toString() {
            return "Work[" + thread.getName() + "]";
        }
    }
}
