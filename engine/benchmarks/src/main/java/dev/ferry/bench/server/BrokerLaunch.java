package dev.ferry.bench.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * How the side-by-side harnesses start a broker JVM, the same for ferry-server and for Apache RocketMQ 5.3.3's name
 * server and broker ({@link ApachePeerMain}): the same heap, commit-log file size and flush, every other setting at
 * its default.
 *
 * @param heap           -Xms and -Xmx of the broker JVM
 * @param segmentMib     commit-log file size, MiB
 * @param syncFlush      SYNC_FLUSH when true, ASYNC_FLUSH otherwise
 * @param ferryConfig    extra key=value lines of ferry-server's --config file
 * @param jvmArgs        extra JVM options ({broker} stands for the broker's name)
 * @param ferryClasspath class path of the ferry-server to start, or null for this JVM's own
 */
record BrokerLaunch(String heap, int segmentMib, boolean syncFlush, List<String> ferryConfig, List<String> jvmArgs,
        String ferryClasspath) {

    /**
     * The command line of broker {@code which} (ferry or apache) on {@code ports} (name server, broker, HA) with its
     * files under {@code dir}; writes ferry-server's config file there.
     */
    List<String> command(String which, int[] ports, Path dir) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        String classpath = which.equals("ferry") && ferryClasspath != null
                ? ferryClasspath : System.getProperty("java.class.path");
        String flush = syncFlush ? "SYNC_FLUSH" : "ASYNC_FLUSH";
        List<String> command = new ArrayList<>(List.of(java, "-Xms" + heap, "-Xmx" + heap));
        for (String arg : jvmArgs) {
            command.add(arg.replace("{broker}", which));
        }
        command.addAll(List.of("-cp", classpath));
        if (which.equals("ferry")) {
            Path config = dir.resolve("ferry.properties");
            Files.writeString(config, "commitLogSegmentSize=" + segmentMib * 1024 * 1024 + "\n"
                    + "flushMode=" + flush + "\n"
                    + ferryConfig.stream().map(line -> line + "\n").collect(Collectors.joining()));
            command.addAll(List.of("dev.ferry.server.cli.FerryServerCommand", "--namesrv-port", ports[0] + "",
                    "--broker-port", ports[1] + "", "--store-dir", dir.resolve("store").toString(), "--config",
                    config.toString()));
        } else {
            command.add(3, "-Duser.home=" + dir);
            command.addAll(List.of(ApachePeerMain.class.getName(), ports[0] + "", ports[1] + "", ports[2] + "",
                    dir.toString(), Integer.toString(segmentMib * 1024 * 1024), flush));
        }
        return command;
    }

    /** The command shortened for the log: the JVM and its heap, then the main class and its arguments. */
    static String brief(List<String> command) {
        return String.join(" ", command.subList(0, 3)) + " ... " + command.subList(5, command.size());
    }
}
