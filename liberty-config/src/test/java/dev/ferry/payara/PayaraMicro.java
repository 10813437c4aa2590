package dev.ferry.payara;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.format.ChildJvm;
import dev.ferry.liberty.support.Directories;
import dev.ferry.liberty.support.Http;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One Payara Micro 6 process running the adapter and order-app.war as the boot command files in
 * {@code src/main/payara} set them up, with the post-boot file's adapter properties replaced by the caller's.
 */
final class PayaraMicro implements AutoCloseable {
    private static final Path TARGET = Path.of("target").toAbsolutePath();

    private final Path runDir;
    private final Process process;
    private final Http http;

    private PayaraMicro(Path runDir, Process process, Http http) {
        this.runDir = runDir;
        this.process = process;
        this.http = http;
    }

    /**
     * Starts Payara Micro in {@code target/<name>} on {@code httpPort}, the adapter configured with
     * {@code adapterProperties} (asadmin's {@code Name=value:Name=value}, a colon in a value escaped), and waits
     * until order-app answers.
     */
    static PayaraMicro start(String name, int httpPort, String adapterProperties) throws IOException {
        Path runDir = TARGET.resolve(name);
        Directories.deleteRecursively(runDir);
        Files.createDirectories(runDir.resolve("tmp"));
        Files.copy(TARGET.resolve("test-apps/ferry-ra.rar"), runDir.resolve("ferry-ra.rar"),
                StandardCopyOption.REPLACE_EXISTING);
        Files.copy(TARGET.resolve("test-apps/order-app.war"), runDir.resolve("order-app.war"),
                StandardCopyOption.REPLACE_EXISTING);
        Files.copy(Path.of("src/main/payara/preboot.txt"), runDir.resolve("preboot.txt"));
        String documented = "Mode=embedded:NamesrvPort=9876:BrokerPort=10911:StoreDir=ferry-data";
        String postboot = Files.readString(Path.of("src/main/payara/postboot.txt"), StandardCharsets.UTF_8);
        assertThat(postboot).contains(documented);
        Files.writeString(runDir.resolve("postboot.txt"), postboot.replace(documented, adapterProperties),
                StandardCharsets.UTF_8);
        List<String> command = new ArrayList<>(ChildJvm.launcher("512m"));
        command.addAll(List.of("-Djava.io.tmpdir=" + runDir.resolve("tmp"),
                "-jar", TARGET.resolve("payara/payara-micro.jar").toString(),
                "--nohazelcast", "--disablephonehome", "--port", Integer.toString(httpPort),
                "--rootdir", runDir.resolve("root").toString(), "--prebootcommandfile", "preboot.txt",
                "--postbootcommandfile", "postboot.txt", "--deploy", "order-app.war"));
        Process process = new ProcessBuilder(command).directory(runDir.toFile()).redirectErrorStream(true)
                .redirectOutput(runDir.resolve("payara.log").toFile()).start();
        PayaraMicro started = new PayaraMicro(runDir, process, new Http(httpPort));
        try {
            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1)).until(() -> {
                assertThat(process.isAlive()).as("Payara Micro ended; see %s", started.logFile()).isTrue();
                try {
                    started.http.get("/order-app/orders/received");
                    return true;
                } catch (RuntimeException notYet) {
                    return false;
                }
            });
        } catch (RuntimeException | Error e) {
            started.close();
            throw e;
        }
        return started;
    }

    Http http() {
        return http;
    }

    Path logFile() {
        return runDir.resolve("payara.log");
    }

    String log() throws IOException {
        return Files.readString(logFile(), StandardCharsets.ISO_8859_1);
    }

    /** SIGTERM: Payara stops its applications and the adapter, which persists the store. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
