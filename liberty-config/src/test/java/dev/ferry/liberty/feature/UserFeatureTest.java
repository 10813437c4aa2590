package dev.ferry.liberty.feature;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.api.Message;
import dev.ferry.api.SendResult;
import dev.ferry.client.ConsumeFromWhere;
import dev.ferry.client.PushConsumer;
import dev.ferry.client.PushConsumerConfig;
import dev.ferry.liberty.support.Directories;
import dev.ferry.liberty.support.Engine;
import dev.ferry.liberty.support.ServerLog;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.header.PullMessageRequestHeader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ferry as Liberty user features, without a resource adapter: the build's ferry-1.0.esa and
 * ferry-sample-plugin-1.0.esa are installed into the Liberty runtime the build downloaded, as the feature tools
 * install a user feature (the manifest into usr/extension/lib/features, the bundles into usr/extension/lib); a
 * server lists the features and configures the engine with a {@code <dev.ferry.server>} element, which reaches
 * Ferry's server component through Liberty's Configuration Admin. The features' bundles then run in Liberty's OSGi
 * framework: the broker serves clients outside and filters with the plugin bundle's filter.
 */
class UserFeatureTest {
    private static final Path WLP = Path.of("target/liberty/wlp").toAbsolutePath();
    private static final Path EXTENSION = WLP.resolve("usr/extension/lib");
    private static final String SERVER = "ferry-feature";
    private static final Path SERVER_DIR = WLP.resolve("usr/servers").resolve(SERVER);
    private static final int NAMESRV_PORT = 20176;
    private static final int BROKER_PORT = 20211;
    private static final String NAME_SERVER = "127.0.0.1:" + NAMESRV_PORT;
    private static final ServerLog LOG = new ServerLog(SERVER);
    private static final Duration WAIT = Duration.ofSeconds(90);

    @BeforeAll
    static void installTheFeaturesAndStartAServerWithThem() throws Exception {
        Directories.deleteRecursively(WLP.resolve("usr/extension"));
        install(Path.of("target/ferry-1.0.esa"), "ferry-1.0.mf");
        install(Path.of("target/ferry-sample-plugin-1.0.esa"), "ferrySamplePlugin-1.0.mf");
        Directories.deleteRecursively(SERVER_DIR);
        run("server", "create", SERVER);
        Files.writeString(SERVER_DIR.resolve("server.xml"), """
                <server description="Ferry as Liberty user features">
                  <featureManager>
                    <feature>usr:ferry-1.0</feature>
                    <feature>usr:ferrySamplePlugin-1.0</feature>
                  </featureManager>
                  <httpEndpoint id="defaultHttpEndpoint" host="127.0.0.1" httpPort="19580" httpsPort="-1"/>
                  <dev.ferry.server storeDir="${server.output.dir}/ferry-store" host="127.0.0.1"
                                    namesrvPort="%d" brokerPort="%d" commitLogSegmentSize="16777216"/>
                </server>
                """.formatted(NAMESRV_PORT, BROKER_PORT), StandardCharsets.UTF_8);
        run("server", "start", SERVER);
        await().atMost(WAIT).until(() -> !LOG.linesWith("Ferry server component ready").isEmpty());
    }

    @AfterAll
    static void stopTheServer() throws Exception {
        if (Files.isDirectory(SERVER_DIR)) {
            run("server", "stop", SERVER);
            // Liberty stops the features' bundles; the component closes the engine, which persists its store.
            assertThat(LOG.linesWith("Ferry server component stopped cleanly")).hasSize(1);
        }
    }

    /**
     * Installs a user feature from its .esa as Liberty's feature tools do: the subsystem manifest becomes
     * {@code features/<short name>.mf}, the bundles go beside the features directory.
     */
    private static void install(Path esa, String manifestName) throws IOException {
        assertThat(esa).as("built by the reactor").isRegularFile();
        Files.createDirectories(EXTENSION.resolve("features"));
        try (ZipInputStream zip = new ZipInputStream(Files.newInputStream(esa))) {
            for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
                if (entry.getName().equals("OSGI-INF/SUBSYSTEM.MF")) {
                    Files.copy(zip, EXTENSION.resolve("features").resolve(manifestName));
                } else if (entry.getName().endsWith(".jar") && !entry.getName().contains("/")) {
                    Files.copy(zip, EXTENSION.resolve(entry.getName()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    @Test
    void shouldStartTheEngineFromTheServerConfigurationWithTheFeaturesBundles() {
        assertThat(LOG.linesWith("CWWKF0012I")).singleElement().asString()
                .contains("usr:ferry-1.0", "usr:ferrySamplePlugin-1.0");
        assertThat(LOG.linesWith("Ferry server component ready")).singleElement().asString()
                .contains("name server " + NAME_SERVER, "broker port " + BROKER_PORT);
        assertThat(LOG.linesWith(" E ")).as("errors in the server's log").isEmpty();
    }

    @Test
    void shouldServeAClientOutsideTheServer(@TempDir Path offsets) {
        List<String> received = new CopyOnWriteArrayList<>();
        try (Engine engine = new Engine(NAME_SERVER, offsets)) {
            SendResult sent = engine.producer().send(Message.builder("FeatureOrders")
                    .body("from outside".getBytes(StandardCharsets.UTF_8)).build());
            PushConsumer consumer = engine.client().pushConsumer(PushConsumerConfig.builder("CG_FEATURE")
                    .subscribe("FeatureOrders", "*").consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).build(),
                    message -> received.add(message.msgId()));
            try {
                await().atMost(WAIT).until(() -> received.contains(sent.msgId()));
            } finally {
                consumer.close();
            }
        }
    }

    @Test
    void shouldFilterInTheBrokerWithThePluginBundlesFilter(@TempDir Path offsets) throws Exception {
        try (Engine engine = new Engine(NAME_SERVER, offsets)) {
            for (String tag : List.of("order-paid", "order-new", "order-shipped", "invoice-paid")) {
                engine.producer().send(Message.builder("FeatureRegex").tags(tag)
                        .body(tag.getBytes(StandardCharsets.UTF_8)).build(), "one-queue");
            }
        }
        // A raw pull naming the plugin's type: no client filters here, the broker alone applies TAG_REGEX.
        NettyRemotingClient client = new NettyRemotingClient(new NettyClientConfig());
        client.start();
        try {
            List<String> tags = new ArrayList<>();
            await().atMost(WAIT).until(() -> {
                tags.clear();
                for (int queue = 0; queue < 4; queue++) {
                    RemotingCommand response = client.invokeSync("127.0.0.1:" + BROKER_PORT,
                            RemotingCommand.createRequestCommand(RequestCode.PULL_MESSAGE, pull(queue)), 10_000);
                    if (response.getCode() == ResponseCode.SUCCESS) {
                        for (MessageExt m : MessageDecoder.decodes(ByteBuffer.wrap(response.getBody()))) {
                            tags.add(m.getTags());
                        }
                    }
                }
                return tags.size() >= 2;
            });
            assertThat(tags).containsExactly("order-paid", "order-shipped");
        } finally {
            client.shutdown();
        }
    }

    private static PullMessageRequestHeader pull(int queueId) {
        PullMessageRequestHeader header = new PullMessageRequestHeader();
        header.setConsumerGroup("CG_FEATURE_REGEX");
        header.setTopic("FeatureRegex");
        header.setQueueId(queueId);
        header.setQueueOffset(0L);
        header.setMaxMsgNums(32);
        header.setSysFlag(1 << 2); // the subscription comes with the pull; no suspension
        header.setCommitOffset(0L);
        header.setSuspendTimeoutMillis(0L);
        header.setSubVersion(0L);
        header.setExpressionType("TAG_REGEX");
        header.setSubscription("order-(paid|shipped)");
        return header;
    }

    /** Runs a script of the Liberty runtime's bin directory and waits for it. */
    private static void run(String script, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(WLP.resolve("bin").resolve(script).toString()));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output;
        try (InputStream in = process.getInputStream()) {
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (!process.waitFor(3, TimeUnit.MINUTES) || process.exitValue() != 0) {
            throw new UncheckedIOException(new IOException(String.join(" ", command) + " failed: " + output));
        }
    }
}
