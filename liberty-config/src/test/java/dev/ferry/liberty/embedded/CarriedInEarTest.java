package dev.ferry.liberty.embedded;

import static dev.ferry.liberty.embedded.EmbeddedServer.HTTP;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.api.Message;
import dev.ferry.liberty.carried.CarriedEarMdb;
import dev.ferry.liberty.carried.VersionFilterProvider;
import dev.ferry.liberty.support.DeliveredInOrder;
import dev.ferry.liberty.support.Engine;
import dev.ferry.liberty.support.TestApps;
import dev.ferry.spi.MessageFilterProvider;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** A filter plugin in an EAR's library directory serves the beans of the EAR's modules. */
@ExtendWith(ArquillianExtension.class)
class CarriedInEarTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path directory;

    @Deployment(testable = false)
    static EnterpriseArchive carriedEar() {
        JavaArchive plugin = ShrinkWrap.create(JavaArchive.class, "carried-plugin.jar")
                .addClass(VersionFilterProvider.class)
                .addAsServiceProvider(MessageFilterProvider.class, VersionFilterProvider.class)
                .addAsResource(new StringAsset("v7"), VersionFilterProvider.VERSION_RESOURCE);
        return ShrinkWrap.create(EnterpriseArchive.class, "carried-ear.ear")
                .addAsModule(TestApps.probeApp("carried-web", CarriedEarMdb.class))
                .addAsLibrary(plugin);
    }

    @Test
    void shouldFilterWithThePluginInTheEarsLibraryDirectory() {
        List<String> sent = new ArrayList<>();
        try (Engine engine = new Engine(EmbeddedServer.NAME_SERVER, directory)) {
            for (String tag : List.of("v7-a", "v1-a", "other", "v7-b")) {
                sent.add(engine.producer().send(Message.builder(CarriedEarMdb.TOPIC).tags(tag)
                        .body(tag.getBytes(StandardCharsets.UTF_8)).build(), "one-queue").msgId());
            }
        }
        // Orderly, one queue: once the last (selected) message is in, every earlier one was decided.
        assertThat(DeliveredInOrder.of(HTTP, "/carried-web/probe/deliveries?bean=CarriedEarMdb", sent, "body", WAIT))
                .containsExactly("v7-a", "v7-b");
    }
}
