package dev.ferry.format;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How tests start child JVMs (servers, brokers, tools, processes to kill): this JVM's launcher, its test class path,
 * and one set of options. Shared with other modules' tests through this module's test jar.
 */
public final class ChildJvm {
    /**
     * The client compiler only and the serial collector: a child JVM lives seconds to minutes beside other tests on
     * two cores, where C2's compilations and G1's threads cost more CPU than they return (the build's test JVMs run
     * the same, see the root pom's {@code ferry.testJvmOptions}).
     */
    public static final List<String> OPTIONS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

    private ChildJvm() {
    }

    /** The {@code java} launcher of the running JVM. */
    public static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The class path surefire gave this test JVM (its own, when surefire runs it from a manifest-only jar). */
    public static String classPath() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }

    /** The launcher, a largest heap of {@code maxHeap} (such as {@code 256m}) and {@link #OPTIONS}. */
    public static List<String> launcher(String maxHeap) {
        List<String> command = new ArrayList<>();
        command.add(java());
        command.add("-Xmx" + maxHeap);
        command.addAll(OPTIONS);
        return command;
    }
}
