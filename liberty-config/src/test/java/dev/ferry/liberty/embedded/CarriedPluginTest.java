package dev.ferry.liberty.embedded;

import static dev.ferry.liberty.embedded.EmbeddedServer.HTTP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.api.Message;
import dev.ferry.format.AtomicFile;
import dev.ferry.liberty.carried.CarriedMdb;
import dev.ferry.liberty.carried.PluginVersionResource;
import dev.ferry.liberty.carried.VersionFilterProvider;
import dev.ferry.liberty.support.DeliveredInOrder;
import dev.ferry.liberty.support.Engine;
import dev.ferry.liberty.support.ServerJvm;
import dev.ferry.liberty.support.ServerLog;
import dev.ferry.liberty.support.TestApps;
import dev.ferry.spi.MessageFilterProvider;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.core.ConditionTimeoutException;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A filter plugin that the application carries in WEB-INF/lib serves that application's bean; redeploying the
 * application with a changed plugin jar changes what the bean receives and leaves no class loader of the old
 * application behind. The application is deployed as an operator would, through the server's configuration
 * (a configDropins file naming the archive), and redeployed by pointing that file at the new archive.
 */
@ExtendWith(ArquillianExtension.class)
class CarriedPluginTest {
    private static final Duration WAIT = Duration.ofSeconds(90);
    /** Ample for a redeploy here (it takes a few seconds), short enough to leave time for a second try. */
    private static final Duration FIRST_WAIT = Duration.ofSeconds(60);
    private static final Path SERVER = Path.of("target/liberty/wlp/usr/servers/ferry-test");
    private static final Path DROPIN = SERVER.resolve("configDropins/overrides/carried-app.xml");
    private static final String BEAN = "CarriedMdb";
    private static final ServerLog SERVER_LOG = new ServerLog("ferry-test");

    @TempDir
    Path directory;

    /** Arquillian needs a deployment to start the server; the application under test comes in by itself. */
    @Deployment(testable = false)
    static WebArchive probe() {
        return TestApps.probeApp("carried-probe");
    }

    @AfterEach
    void undeploy() throws IOException {
        removeDropin();
    }

    /** Takes carried-app out of the server's configuration and waits until it no longer answers. */
    private static void removeDropin() throws IOException {
        Files.deleteIfExists(DROPIN);
        Files.deleteIfExists(new AtomicFile(DROPIN).backupPath());
        await().atMost(WAIT).until(() -> HTTP.getAnswer("/carried-app/probe/ping").status() == 404);
    }

    @Test
    void shouldUseThePluginTheApplicationCarriesAndTheChangedOneAfterARedeploy() throws IOException {
        deploy("v1");
        try (Engine engine = new Engine(EmbeddedServer.NAME_SERVER, directory)) {
            List<String> first = send(engine, "v1-a", "v2-a", "other", "v1-b");
            assertThat(receivedOf(first)).containsExactly("v1-a", "v1-b");

            deploy("v2");
            List<String> second = send(engine, "v1-c", "v2-c", "v2-d");
            // The group's offset moved past v2-a under v1: the new bean starts after it.
            assertThat(receivedOf(second)).containsExactly("v2-c", "v2-d");
        }

        // Only the running application's copy of the plugin is loaded: v1's loader was collected.
        ServerJvm jvm = ServerJvm.liberty("ferry-test");
        await().atMost(WAIT).pollInterval(Duration.ofSeconds(2)).untilAsserted(() -> {
            jvm.collectGarbage();
            assertThat(jvm.loadersOf(VersionFilterProvider.class.getName())).as("loaders of the plugin class")
                    .isEqualTo(1);
        });
    }

    /** Writes carried-app with plugin jar {@code version} and points the server at it; waits until it runs. */
    private void deploy(String version) throws IOException {
        JavaArchive plugin = ShrinkWrap.create(JavaArchive.class, "carried-plugin.jar")
                .addClass(VersionFilterProvider.class)
                .addAsServiceProvider(MessageFilterProvider.class, VersionFilterProvider.class)
                .addAsResource(new StringAsset(version), VersionFilterProvider.VERSION_RESOURCE)
                // A changed jar as a rebuild makes it: of another size too. The server may take a nested jar whose
                // size and (two-second) time are those of the old one for the old one, and keep the old extract.
                .addAsResource(new StringAsset(changes(Integer.parseInt(version.substring(1)))),
                        "dev/ferry/liberty/carried/changes.txt");
        WebArchive app = TestApps.probeApp("carried-app", CarriedMdb.class, PluginVersionResource.class)
                .addAsLibrary(plugin);
        // One file name for every version: a WAR's module name (and so its beans' activation spec ids) is it.
        Path archive = SERVER.resolve("carried/" + version + "/carried-app.war");
        Files.createDirectories(archive.getParent());
        app.as(ZipExporter.class).exportTo(archive.toFile(), true);
        Files.createDirectories(DROPIN.getParent());
        writeDropin(archive);
        if (comesUp(version, FIRST_WAIT)) {
            return;
        }
        // Liberty can lose an application's restart when configuration updates meet (it stops the application and
        // never starts it, logging nothing). What the bean receives is this test's subject, not that: say what the
        // server did, then deploy again from scratch, which takes another path through the server.
        System.err.println("carried-app did not come up with plugin " + version + " after the drop-in changed;"
                + " removing and adding it again. The server logged:\n" + serverAccount());
        removeDropin();
        writeDropin(archive);
        if (!comesUp(version, WAIT)) {
            throw new AssertionError("carried-app did not come up with plugin " + version
                    + ", changed in place nor added again; the server logged:\n" + serverAccount());
        }
    }

    /** Points the server at {@code archive}; the file is replaced whole, never truncated in place (it is polled). */
    private static void writeDropin(Path archive) throws IOException {
        new AtomicFile(DROPIN).write("""
                <server>
                  <application id="carried-app" name="carried-app" type="war" location="%s">
                    <classloader classProviderRef="ferry-ra"/>
                  </application>
                </server>
                """.formatted(archive.toAbsolutePath()).getBytes(StandardCharsets.UTF_8));
    }

    /** Whether the application answers with plugin {@code version} within {@code wait}. */
    private static boolean comesUp(String version, Duration wait) {
        try {
            await().atMost(wait).untilAsserted(() -> assertThat(HTTP.getAnswer("/carried-app/plugin-version"))
                    .as("the running application's plugin version").satisfies(answer -> {
                        assertThat(answer.status()).isEqualTo(200);
                        assertThat(answer.body().trim()).isEqualTo(version);
                    }));
            return true;
        } catch (ConditionTimeoutException e) {
            return false;
        }
    }

    /** The server's own account of configuration updates and the application's restarts. */
    private static String serverAccount() {
        return String.join("\n", SERVER_LOG.linesWith("CWWKG")) + "\n"
                + String.join("\n", SERVER_LOG.linesWith("carried-app"));
    }

    /** Text that compresses badly, longer for each version. */
    private static String changes(int version) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 16 * version; i++) {
            text.append(java.util.UUID.randomUUID()).append('\n');
        }
        return text.toString();
    }

    /** Sends to one queue, in order; the last message must match the running plugin. */
    private static List<String> send(Engine engine, String... tags) {
        List<String> ids = new ArrayList<>();
        for (String tag : tags) {
            ids.add(engine.producer().send(Message.builder(CarriedMdb.TOPIC).tags(tag)
                    .body(tag.getBytes(StandardCharsets.UTF_8)).build(), "one-queue").msgId());
        }
        return ids;
    }

    /** What the bean received of {@code sent}, once the last of them is in (the bean is orderly). */
    private static List<String> receivedOf(List<String> sent) {
        return DeliveredInOrder.of(HTTP, "/carried-app/probe/deliveries?bean=" + BEAN, sent, "body", WAIT);
    }
}
