package dev.ferry.liberty.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The JVM of a running test server, asked through the JDK's {@code jcmd}: to collect its garbage, to say which
 * class loaders hold a class (which shows whether an undeployed application's classes are gone), to show its threads;
 * and killed.
 */
public final class ServerJvm {
    private final long pid;

    private ServerJvm(long pid) {
        this.pid = pid;
    }

    /** The running Liberty server named {@code serverName}. */
    public static ServerJvm liberty(String serverName) {
        List<ProcessHandle> servers = ProcessHandle.allProcesses().filter(p -> p.info().commandLine()
                .filter(line -> line.contains("ws-server.jar") && line.matches(".*\\s" + serverName + "(\\s.*)?$"))
                .isPresent()).toList();
        if (servers.size() != 1) {
            throw new IllegalStateException("expected one running Liberty server " + serverName + ", found "
                    + servers.size());
        }
        return new ServerJvm(servers.get(0).pid());
    }

    /** Every thread's stack, as {@code jcmd Thread.print} gives them. */
    public String threadDump() {
        return jcmd("Thread.print");
    }

    /** SIGKILL: no shutdown of any kind; returns once the process is gone. */
    public void kill() {
        ProcessHandle process = ProcessHandle.of(pid).orElseThrow(() -> new IllegalStateException("no process " + pid));
        process.destroyForcibly();
        process.onExit().orTimeout(60, TimeUnit.SECONDS).join();
    }

    /** A full collection, which also unloads the classes of class loaders nobody holds. */
    public void collectGarbage() {
        jcmd("GC.run");
    }

    /** How many of the JVM's class loaders have loaded a class named {@code className}. */
    public int loadersOf(String className) {
        String listing = jcmd("VM.classloaders", "show-classes=true", "fold=false");
        return (int) listing.lines().filter(line -> line.matches(".*[\\s:]" + className.replace(".", "\\.")
                + "\\s*$")).count();
    }

    private String jcmd(String... command) {
        String jcmd = ProcessHandle.current().info().command().map(java -> java.replaceFirst("java$", "jcmd"))
                .orElse("jcmd");
        List<String> line = new ArrayList<>(List.of(jcmd, Long.toString(pid)));
        line.addAll(List.of(command));
        return ServerCommand.output(line, Map.of());
    }
}
