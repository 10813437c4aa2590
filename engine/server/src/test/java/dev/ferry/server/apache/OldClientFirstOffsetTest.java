package dev.ferry.server.apache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.ChildJvm;
import dev.ferry.server.FerryServerConfig;
import dev.ferry.server.broker.FirstOffsetRule;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Apache's newest 4.x client (4.9.8, in a child JVM: it cannot share a class path with the 5.x client) gets a new
 * group's first offset by Apache's rule too: from the first message of a young topic, from the end of an old one.
 */
@Tag("integration")
class OldClientFirstOffsetTest {
    /** Where the build copies the 4.9.8 client and its dependencies (engine/server's pom). */
    private static final Path CLIENT_JARS = Path.of("target", "apache-client-4.9.8");
    private static final int COUNT = 10;

    @TempDir
    Path dir;

    private static Set<String> keys(String prefix) {
        return IntStream.range(0, COUNT).mapToObj(i -> prefix + i).collect(Collectors.toCollection(TreeSet::new));
    }

    /** Runs one {@link OldClientRound} and returns the keys it received. */
    private static Set<String> round(String nameServer, String kind, String topic, int fillerBytes)
            throws IOException, InterruptedException {
        List<String> classPath = new ArrayList<>();
        try (Stream<Path> jars = Files.list(CLIENT_JARS)) {
            jars.map(Path::toString).sorted().forEach(classPath::add);
        }
        assertThat(classPath).as("the 4.9.8 client's jars").anyMatch(jar -> jar.contains("rocketmq-client-4.9.8"));
        classPath.add(Path.of("target", "test-classes").toString());
        Path output = Files.createTempFile("old-client", ".log");
        List<String> command = new ArrayList<>(ChildJvm.launcher("128m"));
        command.addAll(List.of("-cp", String.join(File.pathSeparator, classPath), OldClientRound.class.getName(),
                nameServer, kind, topic, "CG_" + topic, Integer.toString(COUNT), Integer.toString(fillerBytes)));
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        if (!process.waitFor(150, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the 4.9.8 client did not finish: " + Files.readString(output));
        }
        String received = Files.readAllLines(output).stream().filter(line -> line.startsWith("RECEIVED")).findFirst()
                .orElseThrow(() -> new AssertionError("no RECEIVED line: " + readQuietly(output)));
        assertThat(process.exitValue()).isZero();
        return Arrays.stream(received.substring("RECEIVED".length()).trim().split(","))
                .filter(key -> !key.isEmpty()).collect(Collectors.toCollection(TreeSet::new));
    }

    private static String readQuietly(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return e.toString();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"CONCURRENT", "ORDERLY", "LITE_PULL"})
    void shouldDeliverWhatWasSentToAYoungTopicBeforeANewGroupOfTheFourNineClientStarted(String kind)
            throws Exception {
        try (FerryServerFixture ferry = new FerryServerFixture(dir)) {
            Set<String> received = round(ferry.nameServer(), kind, "TopicYoung49" + kind, 0);
            assertThat(received).containsAll(keys("before-")).containsAll(keys("after-"));
        }
    }

    @Test
    void shouldStartANewGroupOfTheFourNineClientAtTheEndOfAnOldTopic() throws Exception {
        FerryServerConfig config = FerryServerFixture.small(dir)
                .broker(b -> b.firstOffsetRule(new FirstOffsetRule(false, 40, 64 * 1024))).build();
        try (FerryServerFixture ferry = new FerryServerFixture(config)) {
            Set<String> received = round(ferry.nameServer(), "CONCURRENT", "TopicOld49", 64 * 1024);
            assertThat(received).containsAll(keys("after-")).doesNotContainAnyElementsOf(keys("before-"));
        }
    }
}
